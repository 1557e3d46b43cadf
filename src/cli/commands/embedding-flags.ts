import { z } from 'zod';
import type { FeaturePipelineOptions } from '../../rm/index.js';

/**
 * The flags of every command that trains or loads a reward model: where models with `embed`
 * features fetch their vectors, and which environment variable holds the key sent there. They
 * come from the user, never from the model file (a file that names an endpoint is refused).
 */
export const embeddingFlags = {
  embeddingsUrl: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'give an http(s) URL such as http://127.0.0.1:8000/v1')
    .optional()
    .meta({ placeholder: 'url', description: 'OpenAI-compatible /v1 endpoint for reward models with embed features (a model file never names one)' }),
  embeddingsApiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'give an environment variable name such as OPENAI_API_KEY')
    .default('OPENAI_API_KEY')
    .meta({ placeholder: 'name', description: 'environment variable holding the key sent to --embeddings-url (unset: none sent)' }),
};

/** What `loadRewardModel` and training take from the embedding flags. */
export function featureOptionsFromFlags(flags: { embeddingsUrl?: string | undefined; embeddingsApiKeyEnv: string }, env: Record<string, string | undefined> = process.env): FeaturePipelineOptions {
  if (flags.embeddingsUrl === undefined) return {};
  // 'unused' when the variable is unset: local servers need no key, and no other variable's key is sent instead.
  return { embeddings: { baseURL: flags.embeddingsUrl, apiKey: env[flags.embeddingsApiKeyEnv] || 'unused' } };
}
