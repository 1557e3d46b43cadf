import type { ZodType } from 'zod';
import { InvalidInputError, zodIssues } from '../../core/errors.js';
import type { Plan } from '../../core/plan.js';
import type { RewardModel } from '../../core/reward-model.js';
import { defaultBlockCatalog } from '../../plan/index.js';
import { postJson, type PostJsonOptions } from './post-json.js';
import { RemoteRewardOptionsSchema, type RemoteRewardOptionsInput, type RemoteRewardRuntime } from './remote-options.js';
import { canonicalPlanText, defaultRewardPrompt } from './reward-prompt.js';

/** What one protocol does with a batch: build the request body, read the scores from the reply. */
export interface RewardProtocol {
  /** Request body for `texts` (prompt + canonical plan) whose prompts are `prompts`. */
  buildBody(texts: readonly string[], prompts: readonly string[]): unknown;
  /** Scores in input order from a validated reply; throws a MalformedResponseError otherwise. */
  readScores(reply: unknown, expected: number, url: string): number[];
  /** zod schema of the reply. */
  readonly replySchema: ZodType;
}

/**
 * A RewardModel over a remote endpoint: renders each plan (canonically unless `planText` is
 * `raw`), prefixes the prompt, sends
 * batches of `batchSize` one after another, and returns the scores in plan order.
 */
export function createRemoteRewardModel(
  name: string,
  protocol: RewardProtocol,
  options: RemoteRewardOptionsInput,
  runtime: RemoteRewardRuntime = {},
): RewardModel {
  const parsed = RemoteRewardOptionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidInputError(`${name} reward model options`, zodIssues(parsed.error));
  const { url, timeoutMs, maxRetries, batchSize, apiKeyEnv, planText } = parsed.data;
  const { formatPrompt = defaultRewardPrompt, catalog = defaultBlockCatalog(), env = process.env } = runtime;
  const postOptions: PostJsonOptions = { url, timeoutMs, maxRetries, apiKeyEnv, apiKey: env[apiKeyEnv], fetch: runtime.fetch ?? globalThis.fetch };
  if (runtime.retry) postOptions.retry = runtime.retry;
  return {
    name: `${name}(${url})`,
    async score(task: string, plans: readonly (string | Plan)[], scoreOptions: { signal?: AbortSignal } = {}): Promise<number[]> {
      const prompt = formatPrompt(task);
      const texts = plans.map((plan) => prompt + (planText === 'raw' && typeof plan === 'string' ? plan : canonicalPlanText(plan, catalog)));
      const scores: number[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        const requestOptions = scoreOptions.signal ? { ...postOptions, signal: scoreOptions.signal } : postOptions;
        const reply = await postJson(protocol.buildBody(batch, batch.map(() => prompt)), protocol.replySchema, requestOptions);
        scores.push(...protocol.readScores(reply, batch.length, url));
      }
      return scores;
    },
  };
}
