import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
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

// The same texts are counted again and again (a template plan in every Best-of-N pool, the same
// pools scored by several models): BPE encoding was a twentieth of the demo's CPU time. Bounded by
// the characters kept.
const COUNT_CACHE_CHARS = 16_000_000;
const counted = new LRUCache<string, number>({ maxSize: COUNT_CACHE_CHARS, sizeCalculation: (_count, text) => Math.max(1, text.length) });

/** Number of `o200k_base` tokens in `text`. Special-token text such as `<|endoftext|>` counts as plain text. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  let tokens = counted.get(text);
  if (tokens === undefined) {
    tokens = getEncoder().encode(text, [], []).length;
    // A text longer than the whole cache is counted, not kept.
    if (text.length <= COUNT_CACHE_CHARS) counted.set(text, tokens);
  }
  return tokens;
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
