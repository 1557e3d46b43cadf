import { HttpError } from './http-error.js';

/** One `/get_reward` entry resolved into what the reward model reads. */
export interface SplitQuery {
  task: string;
  plan: string;
}

/**
 * Splits the `index`-th OpenRLHF query into task and plan: the prompt is the task (orchrm's own
 * OpenRLHF client, `createOpenRlhfRewardModel`, sends the task text as the prompt, as the TRL
 * export does) and the plan is the rest of the query after it. A query that does not start with
 * its prompt is a 400, since any guessed split would score the wrong text.
 *
 * Fallback for clients that cannot send the exact prompt (older OpenRLHF sends `query` alone;
 * a tokenizer round trip can change the prompt's whitespace): with no prompt, or an empty one,
 * the whole query is scored as the plan with an empty task.
 *
 * @example
 * splitQuery('What is 2+2?{"nodes":[]}', 'What is 2+2?', 0) // { task: 'What is 2+2?', plan: '{"nodes":[]}' }
 */
export function splitQuery(query: string, prompt: string | undefined, index: number): SplitQuery {
  if (prompt === undefined || prompt === '') return { task: '', plan: query };
  if (!query.startsWith(prompt)) {
    throw new HttpError(
      400,
      'query_prompt_mismatch',
      `query[${index}] does not start with prompts[${index}]; each query must be its prompt followed by the plan. Send the exact prompt text ` +
        '(not re-tokenised), or an empty prompt to score the whole query as the plan, or the task and plans separately to POST /v1/score',
      { field: `query[${index}]` },
    );
  }
  return { task: prompt, plan: query.slice(prompt.length) };
}
