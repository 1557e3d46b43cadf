import { stripLeadingSpecialTokens, stripTrailingSpecialTokens } from './chat-templates.js';
import { HttpError } from '../core/index.js';

/** Where a query's plan was found: after the prompt as sent, or after the prompt found again in a re-decoded or left-truncated query. */
export type QueryCut = { plan: string; how: 'exact' | 'realigned' };

/**
 * Fewest non-whitespace characters of the prompt a realigned query must still hold (or the
 * whole prompt, when it is shorter), so that a query that merely ends like its prompt is not
 * cut there.
 */
const MIN_REALIGNED_CHARS = 32;

/**
 * Cuts the `index`-th OpenRLHF query into its prompt and the generated plan: the plan is the
 * rest of the query after the prompt, without the EOS or end-of-turn token OpenRLHF leaves on
 * it (it decodes with `skip_special_tokens=False`). A BOS token that the decoded query starts
 * with and the prompt does not (or the reverse) is ignored.
 *
 * OpenRLHF builds the query by decoding the prompt's tokens and the answer's, and sends the
 * original prompt beside it, so the two differ in real runs (issue 24): a prompt over
 * `max_len - max_new_tokens` tokens is cut from the left (0.9.1 and later), and decoding can
 * change whitespace around special tokens. Such a query is realigned: the plan starts after the
 * longest end of the prompt that the query starts with, whitespace ignored, and the whitespace
 * after it (`how: 'realigned'`).
 * A query that does not hold its prompt's end even so is a 400 `query_prompt_mismatch`, which
 * `/get_reward` scores as an empty plan and counts, rather than refusing the request.
 *
 * With no prompt, or an empty one (OpenRLHF before 0.6.0 sends `query` alone), the whole query
 * is the plan.
 *
 * @example
 * planOfQuery('What is 2+2?{"nodes":[]}<|im_end|>', 'What is 2+2?', 0) // { plan: '{"nodes":[]}', how: 'exact' }
 */
export function planOfQuery(query: string, prompt: string | undefined, index: number): QueryCut {
  if (prompt === undefined || prompt === '') return { plan: stripTrailingSpecialTokens(query), how: 'exact' };
  if (query.startsWith(prompt)) return { plan: stripTrailingSpecialTokens(query.slice(prompt.length)), how: 'exact' };
  const bareQuery = stripLeadingSpecialTokens(query);
  const barePrompt = stripLeadingSpecialTokens(prompt);
  if (barePrompt !== '' && bareQuery.startsWith(barePrompt)) return { plan: stripTrailingSpecialTokens(bareQuery.slice(barePrompt.length)), how: 'exact' };
  const planStart = realignedPlanStart(query, prompt);
  if (planStart !== undefined) return { plan: stripTrailingSpecialTokens(query.slice(planStart)), how: 'realigned' };
  throw new HttpError(
    400,
    'query_prompt_mismatch',
    `query[${index}] does not start with prompts[${index}], nor with an end of it (whitespace aside); each query must be its prompt followed by the plan. Send the exact prompt text, ` +
      'or an empty prompt to score the whole query as the plan, or the task and plans separately to POST /v1/score',
    { field: `query[${index}]` },
  );
}

const isSpace = (char: string) => char === ' ' || char === '\n' || char === '\t' || char === '\r' || char === '\f' || char === '\v';

/**
 * Where the plan starts in a query that holds an end of its prompt, whitespace ignored: the
 * longest suffix of the prompt's non-whitespace characters that the query's non-whitespace
 * characters start with (a Knuth-Morris-Pratt failure function over the query's first
 * characters, then one pass over the prompt), so linear in the prompt and query. A character
 * broken by the cut (U+FFFD) at the query's start is skipped. Undefined when the overlap is
 * shorter than `MIN_REALIGNED_CHARS` and than the prompt.
 */
function realignedPlanStart(query: string, prompt: string): number | undefined {
  const promptChars: string[] = [];
  for (const char of prompt) if (!isSpace(char)) promptChars.push(char);
  if (promptChars.length === 0) return undefined;
  // The query's first non-whitespace characters, as many as the prompt has, and where each is.
  const queryChars: string[] = [];
  const positions: number[] = [];
  let position = 0;
  while (position < query.length && (query[position] === '\uFFFD' || isSpace(query[position]!))) position++;
  while (position < query.length && queryChars.length < promptChars.length) {
    const char = String.fromCodePoint(query.codePointAt(position)!);
    if (!isSpace(char)) {
      queryChars.push(char);
      positions.push(position);
    }
    position += char.length;
  }
  if (queryChars.length === 0) return undefined;
  const failure = new Int32Array(queryChars.length);
  for (let at = 1, length = 0; at < queryChars.length; at++) {
    while (length > 0 && queryChars[at] !== queryChars[length]) length = failure[length - 1]!;
    if (queryChars[at] === queryChars[length]) length++;
    failure[at] = length;
  }
  let matched = 0;
  for (const char of promptChars) {
    while (matched > 0 && (matched === queryChars.length || char !== queryChars[matched])) matched = failure[matched - 1]!;
    if (char === queryChars[matched]) matched++;
  }
  if (matched === 0 || matched < Math.min(MIN_REALIGNED_CHARS, promptChars.length)) return undefined;
  // The plan starts after the last matched character and the whitespace after it (the
  // generation prompt's newlines, however decoding spaced them): a realigned plan loses any
  // whitespace it began with.
  let start = positions[matched - 1]! + queryChars[matched - 1]!.length;
  while (start < query.length && isSpace(query[start]!)) start++;
  return start;
}
