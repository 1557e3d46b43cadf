import { z } from 'zod';

/** OpenAI's limit on inputs per embeddings request. */
const MAX_EMBEDDING_INPUTS = 2048;

const INPUT_MESSAGE = `input must be a non-empty string or an array of 1 to ${MAX_EMBEDDING_INPUTS} non-empty strings (token-id arrays are not supported)`;

/** What `POST /v1/embeddings` accepts. */
export const EmbeddingsBodySchema = z.looseObject({
  model: z.string('model must be a string naming the embedding model (GET /v1/models lists it)').min(1, 'model must not be empty'),
  input: z.union(
    [z.string().min(1, INPUT_MESSAGE), z.array(z.string(INPUT_MESSAGE).min(1, INPUT_MESSAGE), INPUT_MESSAGE).min(1, INPUT_MESSAGE).max(MAX_EMBEDDING_INPUTS, INPUT_MESSAGE)],
    INPUT_MESSAGE,
  ),
  /** The official `openai` client asks for base64 unless told otherwise, and decodes it as float32. */
  encoding_format: z.enum(['float', 'base64'], 'encoding_format must be float or base64').nullish(),
  dimensions: z.number().int().min(1).max(4096, 'dimensions must be an integer from 1 to 4096').nullish(),
});
export type EmbeddingsBody = z.infer<typeof EmbeddingsBodySchema>;
