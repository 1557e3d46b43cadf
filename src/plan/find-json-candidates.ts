/** A stretch of text that may hold the plan's JSON object. */
export interface JsonCandidate {
  text: string;
  /** Offset just past the candidate; later candidates are preferred. */
  end: number;
  /** Inside a ``` code fence. */
  fenced: boolean;
  /** False when the object was still open at the end of the text (truncated output). */
  complete: boolean;
}

/** Incomplete objects restart the scan one brace later; a few restarts bound the work. */
const MAX_RESTARTS = 4;

/**
 * Finds JSON objects inside model output: the contents of ``` fences and every top-level
 * balanced `{...}` in the text. An object may only start at a `{` followed by a key (`{"`,
 * `{'`, `{nodes:`), so braces in prose (`the set {1, 2}`) are skipped; inside an object,
 * braces in strings do not count. One pass over the text per restart: linear time.
 */
export function findJsonCandidates(text: string): JsonCandidate[] {
  return [...fencedCandidates(text), ...balancedCandidates(text)];
}

function fencedCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  let open = text.indexOf('```');
  while (open !== -1) {
    const lineEnd = text.indexOf('\n', open);
    if (lineEnd === -1) break;
    const close = text.indexOf('```', lineEnd);
    const end = close === -1 ? text.length : close;
    const body = text.slice(lineEnd + 1, end).trim();
    if (body.startsWith('{')) candidates.push({ text: body, end, fenced: true, complete: close !== -1 });
    if (close === -1) break;
    open = text.indexOf('```', close + 3);
  }
  return candidates;
}

const isSpace = (char: string | undefined) => char === ' ' || char === '\n' || char === '\r' || char === '\t';
const isIdentifier = (char: string | undefined) => char !== undefined && /[A-Za-z0-9_$]/.test(char);

/** Whether the `{` at `index` opens an object with a key rather than a brace in prose. */
function opensObject(text: string, index: number): boolean {
  let cursor = index + 1;
  while (isSpace(text[cursor])) cursor++;
  const first = text[cursor];
  if (first === '"' || first === "'") return true;
  if (!isIdentifier(first)) return false;
  while (isIdentifier(text[cursor])) cursor++;
  while (isSpace(text[cursor])) cursor++;
  return text[cursor] === ':';
}

function balancedCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  let from = 0;
  for (let restarts = 0; restarts <= MAX_RESTARTS; restarts++) {
    const openStart = scanFrom(text, from, candidates);
    if (openStart === undefined) break;
    from = openStart + 1;
  }
  return candidates;
}

/** Scans from `from`, pushing complete objects; returns the start of an object left open at the end. */
function scanFrom(text: string, from: number, candidates: JsonCandidate[]): number | undefined {
  let depth = 0;
  let start = 0;
  let quote: string | undefined;
  let escaped = false;
  let previous = '';
  for (let index = from; index < text.length; index++) {
    const char = text[index]!;
    if (depth === 0) {
      if (char === '{' && opensObject(text, index)) {
        depth = 1;
        start = index;
        previous = '{';
      }
      continue;
    }
    if (quote !== undefined) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === quote) quote = undefined;
      continue;
    }
    // A single quote opens a string only where a JSON value or key can start, so the
    // apostrophe in an unquoted `don't` is not mistaken for one.
    if (char === '"' || (char === "'" && '{[,:'.includes(previous))) quote = char;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) {
      candidates.push({ text: text.slice(start, index + 1), end: index + 1, fenced: false, complete: true });
    }
    if (!isSpace(char)) previous = char;
  }
  if (depth > 0) {
    candidates.push({ text: text.slice(start), end: text.length, fenced: false, complete: false });
    return start;
  }
  return undefined;
}
