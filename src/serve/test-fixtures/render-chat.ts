import type { ChatMessage } from '../../core/llm-call.js';
import { readChatTemplate, type ChatTemplate } from '../../rm/remote/chat-template.js';

/**
 * The real chat templates in `chat-templates/` (sources and licences in its README.md), and
 * `plain` for a prompt sent without one.
 */
export const TEMPLATE_NAMES = [
  'qwen2.5-instruct',
  'qwen3',
  'llama3-instruct',
  'llama3.1-instruct',
  'llama3.2-instruct',
  'lfm2',
  'nemotron-3-nano',
  'gemma',
  'phi3',
  'phi-4',
  'deepseek-v3',
  'gpt-oss',
  'command-r',
  'granite-3.0-instruct',
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number] | 'plain';

/** The date templates that print today's date (Llama 3.2, gpt-oss) are rendered on. */
export const FIXTURE_DATE = new Date(2026, 6, 26);

const loaded = new Map<string, ChatTemplate>();

/** The fixture template `name`, read as `orchrm` reads a user's tokenizer_config.json. */
export function fixtureTemplate(name: Exclude<TemplateName, 'plain'>): ChatTemplate {
  let template = loaded.get(name);
  if (!template) {
    template = readChatTemplate(fixtureTemplatePath(name), { now: () => FIXTURE_DATE });
    loaded.set(name, template);
  }
  return template;
}

/** Path of the fixture's tokenizer_config.json. */
export function fixtureTemplatePath(name: Exclude<TemplateName, 'plain'>): string {
  return new URL(`./chat-templates/${name}.json`, import.meta.url).pathname;
}

/**
 * Renders a policy prompt as OpenRLHF's `--apply_chat_template` does
 * (`apply_chat_template(messages, tokenize=False, add_generation_prompt=True)`). Templates that
 * refuse a `developer` message (Command R: roles must alternate) get it folded into the system
 * message, and templates that refuse a system message (Gemma) get the system text folded into
 * the first user turn, each joined with a blank line: what a user must do for those models.
 * `plain` joins the contents with blank lines.
 */
export function renderChat(messages: readonly ChatMessage[], name: TemplateName): string {
  if (name === 'plain') return messages.map((message) => message.content).join('\n\n');
  const template = fixtureTemplate(name);
  const render = (conversation: readonly ChatMessage[]) => template.render(conversation, { addGenerationPrompt: true });
  try {
    return render(messages);
  } catch {
    const instructions = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => message.content).join('\n\n');
    const rest = messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
    try {
      return render([{ role: 'system', content: instructions }, ...rest]);
    } catch {
      const [first, ...others] = rest;
      return render([{ role: first?.role ?? 'user', content: `${instructions}\n\n${first?.content ?? ''}` }, ...others]);
    }
  }
}

/**
 * What a generated answer ends with, as OpenRLHF's decoded query carries it: the tokenizer's EOS
 * token (gpt-oss ends a final answer with `<|return|>`), else what the template closes an
 * assistant turn with.
 */
export function endOfTurn(name: TemplateName): string {
  if (name === 'plain') return '';
  const template = fixtureTemplate(name);
  if (template.eosToken !== undefined) return template.eosToken;
  const marker = 'END-OF-PLAN-MARKER';
  const text = template.render([{ role: 'user', content: 'task' }, { role: 'assistant', content: marker }]);
  return text.slice(text.lastIndexOf(marker) + marker.length).trimEnd();
}
