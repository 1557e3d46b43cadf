import OpenAI, { type ClientOptions } from 'openai';
import { UserError } from '../core/index.js';
import type { OpenAiProviderConfig } from './provider-config.js';
import { missingV1Fix, ProviderError, toProviderError } from './provider-errors.js';

/** A model a run will ask for, and what names it (a config field or a flag) in messages. */
export interface NeededModel {
  model: string;
  /** Where the name came from, e.g. `models.worker in vllm.json` or `--orchestrator`. */
  source: string;
}

export interface CheckServedModelsOptions {
  /** Where the API key is read from. @default process.env */
  env?: Record<string, string | undefined>;
  /** Passed to the `openai` client. @default globalThis.fetch */
  fetch?: ClientOptions['fetch'];
  /** Limit on the check, so a dead or hung server fails within seconds. @default min(config.timeoutMs, 10000) @unit milliseconds */
  timeoutMs?: number;
}

/** What the server said it serves; `warning` when it would not say (no `GET /v1/models`). */
export interface ServedModels {
  served: readonly string[] | undefined;
  warning?: string;
}

/** A model the run needs is not among those the server lists. */
export class ModelNotServedError extends UserError {
  constructor(
    message: string,
    readonly missing: readonly NeededModel[],
    readonly served: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Asks the server which models it serves (`GET /v1/models`) before a run spends anything, and
 * fails with a message that says what to fix: the server is not running (ConnectionError), the
 * key is missing or rejected (AuthenticationError, naming the variable), or a model name is not
 * served (ModelNotServedError, naming the config field and listing what is). A server without the
 * endpoint (404, 405) is not an error: the run goes ahead with a warning. One attempt, no retries.
 *
 * @example
 * await checkServedModels(config, [{ model: config.models.worker, source: 'models.worker in vllm.json' }]);
 */
export async function checkServedModels(config: OpenAiProviderConfig, needed: readonly NeededModel[], options: CheckServedModelsOptions = {}): Promise<ServedModels> {
  const { baseURL, apiKeyEnv } = config;
  const env = options.env ?? process.env;
  const apiKeyMissing = !env[apiKeyEnv];
  const timeoutMs = options.timeoutMs ?? Math.min(config.timeoutMs, 10_000);
  const clientOptions: ClientOptions = { baseURL, apiKey: env[apiKeyEnv] || 'no-key-set', timeout: timeoutMs, maxRetries: 0 };
  if (options.fetch) clientOptions.fetch = options.fetch;
  const client = new OpenAI(clientOptions);
  let served: string[];
  try {
    served = [];
    for await (const model of client.models.list({ signal: AbortSignal.timeout(timeoutMs) })) served.push(model.id);
  } catch (error) {
    const mapped = toProviderError(error, { baseURL, apiKeyEnv, timeoutMs, apiKeyMissing });
    if (mapped instanceof ProviderError && (mapped.status === 404 || mapped.status === 405)) {
      const fix = missingV1Fix(baseURL);
      return { served: undefined, warning: `${baseURL} does not list its models (GET /models answered ${mapped.status}); ${fix === undefined ? 'model names are not checked before the run' : `${fix}; model names are not checked before the run`}` };
    }
    if (error instanceof Error && error.name === 'TimeoutError') {
      throw new ProviderError(`${baseURL} did not list its models within ${timeoutMs} ms; check that the server is up and answering`, { retryable: false, cause: error });
    }
    throw mapped;
  }
  const known = new Set(served);
  const missing = uniqueByModel(needed).filter((entry) => !known.has(entry.model));
  if (missing.length > 0) {
    const names = missing.map((entry) => `"${entry.model}" (${entry.source})`).join(', ');
    const list = served.length === 0 ? 'no models at all' : served.map((id) => `"${id}"`).join(', ');
    throw new ModelNotServedError(
      `${baseURL} does not serve ${names}; it serves ${list}. Put one of the served names in the provider config (or start the server with that model)`,
      missing,
      served,
    );
  }
  return { served };
}

function uniqueByModel(needed: readonly NeededModel[]): NeededModel[] {
  const seen = new Map<string, NeededModel>();
  for (const entry of needed) {
    const earlier = seen.get(entry.model);
    seen.set(entry.model, earlier === undefined ? entry : { model: entry.model, source: `${earlier.source}, ${entry.source}` });
  }
  return [...seen.values()];
}
