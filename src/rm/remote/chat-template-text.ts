/** The chat templates a client can render itself, for layouts the server cannot reproduce. */
export const CLIENT_CHAT_TEMPLATES = ['chatml', 'llama3'] as const;
export type ClientChatTemplate = (typeof CLIENT_CHAT_TEMPLATES)[number];

export interface TemplateMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * Renders messages as `tokenizer.apply_chat_template(messages, tokenize=False)` does (no
 * generation prompt) for two template families, so a client can apply a layout's edits (strip
 * trailing newlines, append EOS) that a server-side template cannot:
 * - `chatml` (Qwen and others): `<|im_start|>{role}\n{content}<|im_end|>\n` per message;
 * - `llama3`: `<|begin_of_text|>` then `<|start_header_id|>{role}<|end_header_id|>\n\n{content}<|eot_id|>`.
 * Templates that add a default system prompt (Qwen2.5-Instruct's) are matched by passing it.
 *
 * @example renderChatTemplate([{ role: 'user', content: 'Hi' }], 'chatml') // '<|im_start|>user\nHi<|im_end|>\n'
 */
export function renderChatTemplate(messages: readonly TemplateMessage[], template: ClientChatTemplate): string {
  if (template === 'chatml') return messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`).join('');
  return `<|begin_of_text|>${messages.map((message) => `<|start_header_id|>${message.role}<|end_header_id|>\n\n${message.content.trim()}<|eot_id|>`).join('')}`;
}
