/**
 * The turn markers of common chat templates, as their Jinja templates render them
 * (`tokenizer.apply_chat_template(..., tokenize=False)`), and helpers that read a rendered
 * prompt or a decoded query back. Hand-written: no JavaScript library reads rendered templates
 * back into turns, and the reward server only needs the last user turn and the special tokens
 * around a generated answer.
 */

/** How one template opens and closes a user turn. */
export interface ChatTemplateMarkers {
  name: string;
  userStart: string;
  userEnd: string;
}

/** The templates the server recognises, most specific first. */
export const CHAT_TEMPLATES: readonly ChatTemplateMarkers[] = [
  // Qwen 1.5-3, LFM2, Nemotron 3, Yi, OpenHermes and every other ChatML template.
  { name: 'chatml', userStart: '<|im_start|>user\n', userEnd: '<|im_end|>' },
  // Llama 3, 3.1, 3.2, 3.3.
  { name: 'llama3', userStart: '<|start_header_id|>user<|end_header_id|>\n\n', userEnd: '<|eot_id|>' },
  // Gemma 1-3.
  { name: 'gemma', userStart: '<start_of_turn>user\n', userEnd: '<end_of_turn>' },
  // Phi-3 and Phi-3.5.
  { name: 'phi3', userStart: '<|user|>\n', userEnd: '<|end|>' },
  // DeepSeek V2.5, V3 and R1 (full-width bars and U+2581 are part of the tokens).
  { name: 'deepseek', userStart: '<｜User｜>', userEnd: '<｜Assistant｜>' },
  // Phi-4 (ChatML with <|im_sep|> after the role).
  { name: 'phi4', userStart: '<|im_start|>user<|im_sep|>', userEnd: '<|im_end|>' },
  // gpt-oss (harmony format).
  { name: 'gpt-oss', userStart: '<|start|>user<|message|>', userEnd: '<|end|>' },
  // Cohere Command R and R+.
  { name: 'command-r', userStart: '<|START_OF_TURN_TOKEN|><|USER_TOKEN|>', userEnd: '<|END_OF_TURN_TOKEN|>' },
  // IBM Granite 3.
  { name: 'granite', userStart: '<|start_of_role|>user<|end_of_role|>', userEnd: '<|end_of_text|>' },
  // Llama 2 and Mistral instruct.
  { name: 'llama2', userStart: '[INST]', userEnd: '[/INST]' },
];

/** Tokens a decoded query may start with that a rendered prompt may lack (a tokenizer's BOS). */
const LEADING_SPECIAL_TOKENS = ['<|begin_of_text|>', '<s>', '<bos>', '<｜begin▁of▁sentence｜>', '<|startoftext|>', '<BOS_TOKEN>'];

/** Tokens that end a generated answer: EOS and end-of-turn tokens of the templates above. */
const TRAILING_SPECIAL_TOKENS = ['<|im_end|>', '<|endoftext|>', '<|eot_id|>', '<|end_of_text|>', '<|eom_id|>', '</s>', '<end_of_turn>', '<eos>', '<|end|>', '<｜end▁of▁sentence｜>', '<|return|>', '<|END_OF_TURN_TOKEN|>'];

/** The last user turn of a rendered chat prompt, and the template it was found in. */
export interface UserTurn {
  template: string;
  content: string;
}

/**
 * Finds the last user turn of a prompt rendered with one of `CHAT_TEMPLATES`; undefined for
 * text that is not a rendered chat. Llama 2's `<<SYS>>` block inside the first turn is dropped.
 *
 * @example
 * lastUserTurn('<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n') // { template: 'chatml', content: 'What is 2+2?' }
 */
export function lastUserTurn(prompt: string): UserTurn | undefined {
  for (const { name, userStart, userEnd } of CHAT_TEMPLATES) {
    const start = prompt.lastIndexOf(userStart);
    if (start < 0) continue;
    const contentStart = start + userStart.length;
    const end = prompt.indexOf(userEnd, contentStart);
    let content = prompt.slice(contentStart, end < 0 ? undefined : end);
    if (name === 'llama2') content = content.replace(/^\s*<<SYS>>[\s\S]*?<<\/SYS>>\s*/, '');
    return { template: name, content: content.trim() };
  }
  return undefined;
}

/** Removes BOS-like tokens (and whitespace between them) from the start of a decoded text. */
export function stripLeadingSpecialTokens(text: string): string {
  let rest = text;
  for (let changed = true; changed; ) {
    changed = false;
    for (const token of LEADING_SPECIAL_TOKENS) {
      if (rest.startsWith(token)) {
        rest = rest.slice(token.length);
        changed = true;
      }
    }
  }
  return rest;
}

/**
 * Removes EOS and end-of-turn tokens (and the whitespace around them) from the end of a
 * generated answer, as OpenRLHF decodes queries with `skip_special_tokens=False`.
 *
 * @example
 * stripTrailingSpecialTokens('{"nodes": []}<|im_end|>') // '{"nodes": []}'
 */
export function stripTrailingSpecialTokens(text: string): string {
  let rest = text.trimEnd();
  for (let changed = true; changed; ) {
    changed = false;
    for (const token of TRAILING_SPECIAL_TOKENS) {
      if (rest.endsWith(token)) {
        rest = rest.slice(0, -token.length).trimEnd();
        changed = true;
      }
    }
  }
  return rest;
}
