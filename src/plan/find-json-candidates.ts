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

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;
/** `[A-Za-z0-9_$]` */
const isIdentifier = (code: number) => (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
/** `{`, `[`, `,` and `:`: where a JSON key or value can start. */
const opensValue = (code: number) => code === 123 || code === 91 || code === 44 || code === 58;

/** Whether the `{` at `index` opens an object with a key rather than a brace in prose. */
function opensObject(text: string, index: number): boolean {
  let cursor = index + 1;
  while (isSpace(text.charCodeAt(cursor))) cursor++;
  const first = text.charCodeAt(cursor);
  if (first === 34 || first === 39) return true;
  if (!isIdentifier(first)) return false;
  while (isIdentifier(text.charCodeAt(cursor))) cursor++;
  while (isSpace(text.charCodeAt(cursor))) cursor++;
  return text.charCodeAt(cursor) === 58;
}

/**
 * The offset of the quote that closes a string opened just before `from`, or -1 when the text
 * ends inside it. A backslash escapes the character after it; the search jumps from quote to
 * quote and backslash to backslash instead of reading every character.
 */
function stringEnd(text: string, from: number, quote: '"' | "'"): number {
  let backslash = text.indexOf('\\', from);
  let position = from;
  for (;;) {
    const close = text.indexOf(quote, position);
    if (close === -1) return -1;
    while (backslash !== -1 && backslash < close - 1) backslash = text.indexOf('\\', backslash + 2);
    if (backslash !== close - 1) return close;
    // The quote is escaped: look on after it.
    position = close + 1;
    backslash = text.indexOf('\\', close + 1);
  }
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
  /** The last character outside strings that is not space. */
  let previous = 0;
  let index = from;
  while (index < text.length) {
    if (depth === 0) {
      const open = text.indexOf('{', index);
      if (open === -1) break;
      index = open + 1;
      if (opensObject(text, open)) {
        depth = 1;
        start = open;
        previous = 123;
      }
      continue;
    }
    const code = text.charCodeAt(index);
    // A single quote opens a string only where a JSON value or key can start, so the
    // apostrophe in an unquoted `don't` is not mistaken for one.
    if (code === 34 || (code === 39 && opensValue(previous))) {
      const close = stringEnd(text, index + 1, code === 34 ? '"' : "'");
      if (close === -1) break;
      previous = code;
      index = close + 1;
      continue;
    }
    if (code === 123) depth++;
    else if (code === 125 && --depth === 0) {
      candidates.push({ text: text.slice(start, index + 1), end: index + 1, fenced: false, complete: true });
    }
    if (!isSpace(code)) previous = code;
    index++;
  }
  if (depth > 0) {
    candidates.push({ text: text.slice(start), end: text.length, fenced: false, complete: false });
    return start;
  }
  return undefined;
}
