import { countTokens } from '../../llm/index.js';
import type { EmbeddingsBody } from './embeddings-body.js';
import { hashedEmbedding } from './hashed-embedding.js';

/** An OpenAI `list` of embeddings, as `POST /v1/embeddings` answers. */
export interface EmbeddingsResponse {
  object: 'list';
  model: string;
  data: { object: 'embedding'; index: number; embedding: number[] | string }[];
  usage: { prompt_tokens: number; total_tokens: number };
}

/** Embeds every input with `hashedEmbedding`; usage counts the inputs' `o200k_base` tokens. */
export function embeddingsResponse(body: EmbeddingsBody, defaultDimensions: number): EmbeddingsResponse {
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  const dimensions = body.dimensions ?? defaultDimensions;
  let promptTokens = 0;
  const data = inputs.map((text, index) => {
    promptTokens += countTokens(text);
    const vector = hashedEmbedding(text, dimensions);
    // base64 of the float32 bytes in platform (little-endian) order, which the openai client decodes.
    const embedding = body.encoding_format === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : Array.from(vector);
    return { object: 'embedding' as const, index, embedding };
  });
  return { object: 'list', model: body.model, data, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
}
