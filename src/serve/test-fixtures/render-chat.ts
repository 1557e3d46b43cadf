import type { ChatMessage } from '../../core/llm-call.js';

export type TemplateName = 'chatml' | 'qwen2.5' | 'llama3' | 'gemma' | 'phi3' | 'deepseek' | 'llama2' | 'plain';

/**
 * Renders messages as `tokenizer.apply_chat_template(messages, tokenize=False,
 * add_generation_prompt=True)` does for each family's published template, closely enough for
 * the reward server's tests: turn markers, default system prompts and the generation prompt.
 * `plain` joins the contents with blank lines (a prompt sent without a template).
 */
export function renderChat(messages: readonly ChatMessage[], template: TemplateName): string {
  switch (template) {
    case 'chatml':
      return `${messages.map((message) => `<|im_start|>${message.role}\n${message.content}<|im_end|>\n`).join('')}<|im_start|>assistant\n`;
    case 'qwen2.5': {
      // Qwen2.5-Instruct adds its own system prompt when the first message is not one.
      const withSystem = messages[0]?.role === 'system' ? messages : [{ role: 'system', content: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' } as ChatMessage, ...messages];
      return renderChat(withSystem, 'chatml');
    }
    case 'llama3':
      return `<|begin_of_text|>${messages.map((message) => `<|start_header_id|>${message.role}<|end_header_id|>\n\n${message.content.trim()}<|eot_id|>`).join('')}<|start_header_id|>assistant<|end_header_id|>\n\n`;
    case 'gemma': {
      // Gemma has no system role: the template prepends system text to the first user turn.
      const system = messages.filter((message) => message.role !== 'user' && message.role !== 'assistant').map((message) => message.content).join('\n\n');
      const turns = messages.filter((message) => message.role === 'user' || message.role === 'assistant');
      return `<bos>${turns
        .map((message, index) => `<start_of_turn>${message.role === 'assistant' ? 'model' : 'user'}\n${index === 0 && system ? `${system}\n\n` : ''}${message.content.trim()}<end_of_turn>\n`)
        .join('')}<start_of_turn>model\n`;
    }
    case 'phi3':
      return `${messages.map((message) => `<|${message.role === 'developer' ? 'system' : message.role}|>\n${message.content}<|end|>\n`).join('')}<|assistant|>\n`;
    case 'deepseek': {
      const system = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => message.content).join('\n\n');
      const turns = messages.filter((message) => message.role === 'user' || message.role === 'assistant');
      return `<｜begin▁of▁sentence｜>${system}${turns.map((message) => (message.role === 'user' ? `<｜User｜>${message.content}` : `<｜Assistant｜>${message.content}<｜end▁of▁sentence｜>`)).join('')}<｜Assistant｜>`;
    }
    case 'llama2': {
      const system = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => message.content).join('\n\n');
      const user = messages.filter((message) => message.role === 'user').map((message) => message.content).join('\n\n');
      return `<s>[INST] <<SYS>>\n${system}\n<</SYS>>\n\n${user.trim()} [/INST]`;
    }
    case 'plain':
      return messages.map((message) => message.content).join('\n\n');
  }
}

/** The EOS or end-of-turn token each family's generation ends with, as OpenRLHF's decoded query carries it. */
export const END_OF_TURN: Record<TemplateName, string> = {
  chatml: '<|im_end|>',
  'qwen2.5': '<|im_end|>',
  llama3: '<|eot_id|>',
  gemma: '<end_of_turn>',
  phi3: '<|end|>',
  deepseek: '<｜end▁of▁sentence｜>',
  llama2: '</s>',
  plain: '',
};
