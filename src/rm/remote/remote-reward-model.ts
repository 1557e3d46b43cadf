import pLimit from 'p-limit';
import type { ZodType } from 'zod';
import { InvalidInputError, type Plan, type RewardModel, zodIssues } from '../../core/index.js';
import { defaultBlockCatalog } from '../../plan/index.js';
import { postJson, type PostJsonOptions } from './post-json.js';
import { RemoteRewardOptionsSchema, type RemoteRewardOptionsInput, type RemoteRewardRuntime, type RemoteRewardSettings } from './remote-options.js';
import { canonicalPlanText, defaultRewardPrompt } from './reward-prompt.js';

/** One HTTP request of a batch, and how many scores its reply holds. */
export interface RemoteRequest {
  body: unknown;
  count: number;
}

/** What one protocol does: build the requests for a batch of plans, read the scores of a reply. */
export interface RewardProtocol {
  /** Requests for `planTexts` (already rendered raw or canonical) of one task, whose prompt is `prompt`. */
  buildRequests(prompt: string, task: string, planTexts: readonly string[]): RemoteRequest[];
  /** Scores in input order from a validated reply; throws a MalformedResponseError otherwise. */
  readScores(reply: unknown, expected: number, url: string): number[];
  /** zod schema of the reply. */
  readonly replySchema: ZodType;
  /** Runs once before the first request (a server version check); its failure is kept and thrown by every call. */
  check?(context: { settings: RemoteRewardSettings; fetch: typeof fetch; apiKey: string | undefined }): Promise<void>;
}

/**
 * A RewardModel over a remote endpoint: renders each plan (as written unless `planText` is
 * `canonical`), lets the protocol build requests of `batchSize` plans, sends up to
 * `concurrency` at once, and returns the scores in plan order.
 */
export function createRemoteRewardModel(name: string, protocol: RewardProtocol, options: RemoteRewardOptionsInput, runtime: RemoteRewardRuntime = {}): RewardModel {
  const parsed = RemoteRewardOptionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidInputError(`${name} reward model options`, zodIssues(parsed.error));
  const settings = parsed.data;
  const { url, timeoutMs, maxRetries, batchSize, apiKeyEnv, planText, concurrency } = settings;
  const { formatPrompt = defaultRewardPrompt, catalog = defaultBlockCatalog(), env = process.env } = runtime;
  const fetchImpl = runtime.fetch ?? globalThis.fetch;
  const postOptions: PostJsonOptions = { url, timeoutMs, maxRetries, apiKeyEnv, apiKey: env[apiKeyEnv], fetch: fetchImpl };
  if (runtime.retry) postOptions.retry = runtime.retry;
  let checked: Promise<void> | undefined;
  return {
    name: `${name}(${url})`,
    async score(task: string, plans: readonly (string | Plan)[], scoreOptions: { signal?: AbortSignal } = {}): Promise<number[]> {
      if (plans.length === 0) return [];
      if (protocol.check) await (checked ??= protocol.check({ settings, fetch: fetchImpl, apiKey: postOptions.apiKey }));
      const prompt = formatPrompt(task);
      const texts = plans.map((plan) => (planText === 'raw' && typeof plan === 'string' ? plan : canonicalPlanText(plan, catalog)));
      const requests: RemoteRequest[] = [];
      for (let start = 0; start < texts.length; start += batchSize) requests.push(...protocol.buildRequests(prompt, task, texts.slice(start, start + batchSize)));
      const requestOptions = scoreOptions.signal ? { ...postOptions, signal: scoreOptions.signal } : postOptions;
      const limit = pLimit(concurrency);
      const replies = await Promise.all(
        requests.map((request) => limit(async () => protocol.readScores(await postJson(request.body, protocol.replySchema, requestOptions), request.count, url))),
      );
      return replies.flat();
    },
  };
}
