/**
 * The reply codec of the blocks: the tags a model's reply carries and how the blocks read them.
 * The blocks (`agents/`) read replies with `extractAnswer`, `readVerdict` and
 * `readSearchAction`; the simulated worker (`sim/`) writes its replies with the writers here, so
 * a change of a tag is one edit here and block-replies.test.ts checks that what is written is
 * read back.
 */

/** Longer queries are cut: a model that dumps its reasoning into a query should not stall BM25. */
export const MAX_QUERY_CHARS = 500;

/** A critic's verdict; anything but a readable correct/incorrect is `unclear`. */
export type Verdict = 'correct' | 'incorrect' | 'unclear';

/** What a search-loop reply asks for: a query, the end of the loop, or neither. */
export type SearchAction = { kind: 'search'; query: string } | { kind: 'answer' } | { kind: 'none' };

const VERDICT_TAG = /<verdict>([^<]*)<\/verdict>/gi;

/** `<answer>answer</answer>`, the tag `extractAnswer` reads first. */
export function answerTag(answer: string): string {
  return `<answer>${answer}</answer>`;
}

/** `<verdict>correct</verdict>` or `<verdict>incorrect</verdict>`, the tag `readVerdict` reads. */
export function verdictTag(verdict: Exclude<Verdict, 'unclear'>): string {
  return `<verdict>${verdict}</verdict>`;
}

/** `<search>query</search>`, the tag `readSearchAction` reads. */
export function searchTag(query: string): string {
  return `<search>${query}</search>`;
}

/**
 * The sentence a critic writes when the answer under review rests on a statement of the text
 * that the text itself undermines (a note "written before the last delivery", a rumour); a
 * refine that reads it knows which statement to distrust (simulated worker, docs/sim.md §4.7).
 */
export const MISLEADING_STATEMENT_FLAG = 'It relies on a statement that the text itself marks as unreliable; ignore that statement.';

/** Whether a critique flags a misleading statement (written with MISLEADING_STATEMENT_FLAG). */
export function flagsMisleadingStatement(critique: string): boolean {
  return critique.includes(MISLEADING_STATEMENT_FLAG);
}

/**
 * The critic's verdict: the last `<verdict>` tag decides; anything but correct/incorrect is
 * `unclear`.
 *
 * @example
 * readVerdict('Step 2 is wrong.\n<verdict>incorrect</verdict>') // 'incorrect'
 */
export function readVerdict(text: string): Verdict {
  let last: string | undefined;
  for (const match of text.matchAll(VERDICT_TAG)) last = match[1];
  const verdict = last?.trim().toLowerCase();
  return verdict === 'correct' || verdict === 'incorrect' ? verdict : 'unclear';
}

/**
 * What a search-loop reply asks for: whichever of `<search>` and `<answer>` the model wrote
 * first is what it meant to do. A query loses runs of whitespace and is cut at MAX_QUERY_CHARS.
 *
 * @example
 * readSearchAction('I need the founder.\n<search>Zentrix founder</search>') // {kind: 'search', query: 'Zentrix founder'}
 */
export function readSearchAction(text: string): SearchAction {
  // Regexes rather than indexOf on a lowercased copy: lowercasing can change string length.
  const searchAt = /<search>/i.exec(text)?.index ?? -1;
  const answerAt = /<answer>/i.exec(text)?.index ?? -1;
  if (searchAt === -1 && answerAt === -1) return { kind: 'none' };
  if (searchAt === -1 || (answerAt !== -1 && answerAt < searchAt)) return { kind: 'answer' };
  const start = searchAt + '<search>'.length;
  const closing = /<\/search>/gi;
  closing.lastIndex = start;
  const close = closing.exec(text)?.index ?? -1;
  // A stop sequence may have cut the closing tag; the query then runs to the end of the line.
  const lineEnd = text.indexOf('\n', start);
  const end = close !== -1 ? close : lineEnd !== -1 ? lineEnd : text.length;
  return { kind: 'search', query: text.slice(start, end).trim().replace(/\s+/g, ' ').slice(0, MAX_QUERY_CHARS) };
}
