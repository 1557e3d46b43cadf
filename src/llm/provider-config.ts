import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError, InvalidUtf8Error, readTextFile, zodIssues } from '../core/index.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A model id the server serves (`GET /v1/models` lists them). */
const modelName = (what: string) => {
  const message = `name the model that ${what}, as the server lists it at GET /v1/models`;
  return z.string(message).min(1, message);
};

/** Which model answers each slot. */
export const ModelsConfigSchema = z.strictObject({
  /** Writes plans. */
  orchestrator: modelName('writes plans'),
  /** Runs sub-agent blocks (a plan node may override it). */
  worker: modelName('runs sub-agents'),
  /** Verifies or judges (reward model baselines, LLM judges). */
  judge: modelName('judges'),
});

/**
 * How one role's requests are generated, sent in place of orchrm's own values (the orchestrator's
 * max_tokens 4096 and temperature 1, a block's params): a thinking model may need a larger token
 * budget, a server its own sampling. Fields left out keep orchrm's values.
 */
export const GenerationSettingsSchema = z.strictObject({
  /** Token limit of each reply, reasoning included (sent as max_tokens or max_completion_tokens). */
  maxTokens: z.number().int().positive('maxTokens must be a positive number of tokens').optional(),
  temperature: z.number().min(0).max(2, 'temperature must be from 0 to 2').optional(),
  /** Nucleus sampling (top_p). */
  topP: z.number().gt(0, 'topP must be above 0').max(1, 'topP must be at most 1').optional(),
  /** reasoning_effort, for servers and models that take it (OpenAI's reasoning models, vLLM's gpt-oss); a server that refuses it has it left out. */
  reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
});
export type GenerationSettings = z.infer<typeof GenerationSettingsSchema>;

/** Generation settings per role. */
export const GenerationConfigSchema = z.strictObject({
  orchestrator: GenerationSettingsSchema.optional(),
  worker: GenerationSettingsSchema.optional(),
  judge: GenerationSettingsSchema.optional(),
});
export type GenerationConfig = z.infer<typeof GenerationConfigSchema>;

/** SQLite response cache (see `withResponseCache`). */
export const CacheConfigSchema = z.strictObject({
  /** Database file; a relative path is resolved against the config file's folder. */
  path: z.string().min(1, 'give the SQLite file for the response cache'),
});

/**
 * An OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp server, Together...).
 * Defaults follow openai-node where it has one.
 */
export const OpenAiProviderConfigSchema = z.strictObject({
  type: z.literal('openai'),
  /**
   * The server's OpenAI-compatible base URL, ending in `/v1`. Required: a config without it would
   * otherwise go to OpenAI and spend money on a key nobody meant to use.
   */
  baseURL: z.url({
    protocol: /^https?$/,
    error: (issue) =>
      issue.input === undefined
        ? 'baseURL is required: name the server, e.g. "http://127.0.0.1:8000/v1" (vLLM), "http://127.0.0.1:11434/v1" (Ollama) or "https://api.openai.com/v1" (OpenAI)'
        : 'baseURL must be an http(s) URL such as http://127.0.0.1:8000/v1',
  }),
  /** Environment variable holding the API key; may be unset for local servers. @default 'OPENAI_API_KEY' */
  apiKeyEnv: z.string().regex(ENV_NAME, 'apiKeyEnv must be an environment variable name such as OPENAI_API_KEY').default('OPENAI_API_KEY'),
  models: ModelsConfigSchema,
  /** Per-attempt timeout. @default 60000 @unit milliseconds */
  timeoutMs: z.number().int().positive('timeoutMs must be a positive number of milliseconds').default(60_000),
  /** Retries after the first attempt. @default 2 (openai-node) */
  maxRetries: z.number().int().min(0).max(10, 'maxRetries above 10 only hides a broken server').default(2),
  /** Requests in flight at once. @default 8 */
  concurrency: z.number().int().min(1).max(4096).default(8),
  /** Send `response_format: json_schema` when a request asks for it. @default false */
  structuredOutput: z.boolean().default(false),
  cache: CacheConfigSchema.optional(),
  /** Generation settings per role (`generation.orchestrator.maxTokens`...). @default {} (orchrm's own values) */
  generation: GenerationConfigSchema.default({}),
});
export type OpenAiProviderConfig = z.infer<typeof OpenAiProviderConfigSchema>;
export type OpenAiProviderConfigInput = z.input<typeof OpenAiProviderConfigSchema>;

/**
 * Every provider config, told apart by `type`. To add a provider, define its member schema
 * (a `z.strictObject` with a literal `type`) and list it here.
 */
export const ProviderConfigSchema = z.discriminatedUnion('type', [OpenAiProviderConfigSchema], {
  error: (issue) => (issue.code === 'invalid_union' ? 'type must be one of: "openai"' : undefined),
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
export type ProviderConfigInput = z.input<typeof ProviderConfigSchema>;

const HINT = 'Fix the field(s) above; a minimal config is {"type": "openai", "baseURL": "http://127.0.0.1:8000/v1", "models": {"orchestrator": "m", "worker": "m", "judge": "m"}}.';

/** Validates an already-parsed config; `source` names it in errors. */
export function parseProviderConfig(value: unknown, source = 'provider config'): ProviderConfig {
  const result = ProviderConfigSchema.safeParse(value);
  if (!result.success) throw new InvalidInputError(source, zodIssues(result.error), HINT);
  return result.data;
}

/**
 * Reads and validates a provider config JSON file. Throws InvalidInputError naming the file,
 * the field and the fix. A relative `cache.path` is resolved against the file's folder.
 *
 * @example
 * const config = loadProviderConfig('configs/vllm.json');
 */
export function loadProviderConfig(path: string): ProviderConfig {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new InvalidInputError(path, [{ path: '', message: `cannot be read (${(error as Error).message})` }], 'Pass the path of an existing provider config JSON file.');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(path, [{ path: '', message: `is not valid JSON (${(error as Error).message})` }], HINT);
  }
  const config = parseProviderConfig(json, path);
  if (config.cache && !isAbsolute(config.cache.path)) {
    return { ...config, cache: { path: resolve(dirname(path), config.cache.path) } };
  }
  return config;
}
