/** How an answer was found in a model's text, most explicit first. */
export type AnswerMethod = 'answer_tag' | 'boxed' | 'answer_line' | 'last_line' | 'none';

export interface ExtractedAnswer {
  answer: string;
  method: AnswerMethod;
}

const ANSWER_OPEN = /<answer>/gi;
const ANSWER_CLOSE = /<\/answer>/gi;
const BOXED = '\\boxed{';
// `[\s#*_>]*` and `[\s*_]*` never overlap with the letters or colon that follow them, so each
// line is matched in linear time (no catastrophic backtracking on hostile model output).
const ANSWER_LINE = /^[\s#*_>]*(?:final\s+)?answer[\s*_]*[:：]/i;

/**
 * Finds the answer in a model's text. Tried in order:
 * 1. the last `<answer>...</answer>` pair (an unclosed `<answer>` at the end also counts, since
 *    a stop sequence or token limit can cut the closing tag); a `\boxed{}` inside is unwrapped;
 * 2. the last `\boxed{...}` with balanced braces;
 * 3. the last `Answer:` / `Final answer:` line (markdown emphasis tolerated; an empty line
 *    after the colon takes the next non-empty line);
 * 4. the last non-empty line.
 * Runs in time linear in the text length.
 *
 * @example
 * extractAnswer('Adding gives 12.\n<answer>12</answer>'); // {answer: '12', method: 'answer_tag'}
 * extractAnswer('So $\\boxed{\\frac{1}{2}}$.'); // {answer: '\\frac{1}{2}', method: 'boxed'}
 */
export function extractAnswer(text: string): ExtractedAnswer {
  const tagged = lastAnswerTag(text);
  if (tagged !== undefined) {
    return { answer: (lastBoxed(tagged) ?? tagged).trim(), method: 'answer_tag' };
  }
  const boxed = lastBoxed(text);
  if (boxed !== undefined) return { answer: boxed.trim(), method: 'boxed' };
  const lines = text.split('\n');
  const line = lastAnswerLine(lines);
  if (line !== undefined) return { answer: line, method: 'answer_line' };
  for (let index = lines.length - 1; index >= 0; index--) {
    const candidate = (lines[index] ?? '').trim();
    if (candidate !== '') return { answer: candidate, method: 'last_line' };
  }
  return { answer: '', method: 'none' };
}

/** Content of the last complete `<answer>` pair, or of a trailing unclosed `<answer>`. */
function lastAnswerTag(text: string): string | undefined {
  const lastOpen = lastMatch(ANSWER_OPEN, text, text.length);
  if (lastOpen === undefined) return undefined;
  const lastClose = lastMatch(ANSWER_CLOSE, text, text.length);
  if (lastClose === undefined || lastClose.index < lastOpen.index) {
    const tail = text.slice(lastOpen.index + lastOpen.length).trim();
    if (tail !== '' || lastClose === undefined) return tail === '' ? undefined : tail;
  }
  if (lastClose === undefined) return undefined;
  // The last close tag and the last open tag before it form the last complete pair.
  const open = lastMatch(ANSWER_OPEN, text, lastClose.index);
  if (open === undefined) return undefined;
  return text.slice(open.index + open.length, lastClose.index);
}

/** Last match of a global literal regex that starts before `before`. One left-to-right pass. */
function lastMatch(pattern: RegExp, text: string, before: number): { index: number; length: number } | undefined {
  pattern.lastIndex = 0;
  let found: { index: number; length: number } | undefined;
  for (let match = pattern.exec(text); match !== null && match.index < before; match = pattern.exec(text)) {
    found = { index: match.index, length: match[0].length };
  }
  return found;
}

/** Content of the last `\boxed{...}` whose braces balance; escaped `\{` `\}` do not count. */
function lastBoxed(text: string): string | undefined {
  if (!text.includes(BOXED)) return undefined;
  // One pass pairs every brace with its partner, so checking each \boxed is O(1).
  const closeOf = new Map<number, number>();
  const openStack: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') {
      index++; // skip the escaped character
    } else if (char === '{') {
      openStack.push(index);
    } else if (char === '}') {
      const open = openStack.pop();
      if (open !== undefined) closeOf.set(open, index);
    }
  }
  let result: string | undefined;
  for (let start = text.indexOf(BOXED); start !== -1; start = text.indexOf(BOXED, start + 1)) {
    const brace = start + BOXED.length - 1;
    const close = closeOf.get(brace);
    if (close !== undefined) result = text.slice(brace + 1, close);
  }
  return result;
}

function lastAnswerLine(lines: readonly string[]): string | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] ?? '';
    const match = ANSWER_LINE.exec(line);
    if (match === null) continue;
    const rest = stripEmphasis(line.slice(match[0].length));
    if (rest !== '') return rest;
    for (let next = index + 1; next < lines.length; next++) {
      const following = stripEmphasis(lines[next] ?? '');
      if (following !== '') return following;
    }
  }
  return undefined;
}

function stripEmphasis(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && /[\s*_]/.test(value[start] ?? '')) start++;
  while (end > start && /[\s*_]/.test(value[end - 1] ?? '')) end--;
  return value.slice(start, end);
}
