import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { ChatMessage } from '../core/index.js';

/*
 * Token counting for servers that do not report usage. We use `o200k_base` (the GPT-4o family
 * encoding) for every model: local models have their own tokenizers, so counted usage is an
 * estimate, and `usageSource: 'counted'` says so wherever it is stored.
 */

const require = createRequire(import.meta.url);
let encoder: Tiktoken | undefined;

/** Builds the encoder on first use: the rank table is 2 MB and most runs never need it. */
function getEncoder(): Tiktoken {
  if (!encoder) {
    const ranks = require('js-tiktoken/ranks/o200k_base') as TiktokenBPE;
    encoder = new Tiktoken(ranks);
  }
  return encoder;
}

/** Number of `o200k_base` tokens in `text`. Special-token text such as `<|endoftext|>` counts as plain text. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  return getEncoder().encode(text, [], []).length;
}

// OpenAI cookbook ("How to count tokens with tiktoken"): every message carries 3 tokens of
// framing, and every reply is primed with 3 more.
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

/** Prompt tokens of a chat request, counted the way the OpenAI cookbook does for chat models. */
export function countMessageTokens(messages: readonly ChatMessage[]): number {
  let total = TOKENS_PER_REPLY;
  for (const message of messages) total += TOKENS_PER_MESSAGE + countTokens(message.role) + countTokens(message.content);
  return total;
}
