import { stripLeadingSpecialTokens, stripTrailingSpecialTokens } from './chat-templates.js';
import { HttpError } from '../core/index.js';

/**
 * Cuts the `index`-th OpenRLHF query into its prompt and the generated plan: the plan is the
 * rest of the query after the prompt, without the EOS or end-of-turn token OpenRLHF leaves on
 * it (it decodes with `skip_special_tokens=False`). A BOS token that the decoded query starts
 * with and the prompt does not (or the reverse) is ignored. A query that does not start with
 * its prompt otherwise is a 400, since any guessed cut would score the wrong text.
 *
 * With no prompt, or an empty one (OpenRLHF before 0.6.0 sends `query` alone), the whole query
 * is the plan.
 *
 * @example
 * planOfQuery('What is 2+2?{"nodes":[]}<|im_end|>', 'What is 2+2?', 0) // '{"nodes":[]}'
 */
export function planOfQuery(query: string, prompt: string | undefined, index: number): string {
  if (prompt === undefined || prompt === '') return stripTrailingSpecialTokens(query);
  if (query.startsWith(prompt)) return stripTrailingSpecialTokens(query.slice(prompt.length));
  const bareQuery = stripLeadingSpecialTokens(query);
  const barePrompt = stripLeadingSpecialTokens(prompt);
  if (barePrompt !== '' && bareQuery.startsWith(barePrompt)) return stripTrailingSpecialTokens(bareQuery.slice(barePrompt.length));
  throw new HttpError(
    400,
    'query_prompt_mismatch',
    `query[${index}] does not start with prompts[${index}]; each query must be its prompt followed by the plan. Send the exact prompt text ` +
      '(not re-tokenised), or an empty prompt to score the whole query as the plan, or the task and plans separately to POST /v1/score',
    { field: `query[${index}]` },
  );
}
