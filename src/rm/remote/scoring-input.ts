import { UserError } from '../../core/index.js';
import type { ScoringLayout } from '../../pairs/index.js';
import type { ChatTemplate, ChatTemplateMessage } from './chat-template.js';

/** What to send a pooling server for one (task, plan): text to tokenize, or messages for the server's chat template. */
export type ScoringInput = { kind: 'text'; text: string; addSpecialTokens: boolean } | { kind: 'messages'; messages: ChatTemplateMessage[] };

export interface ScoringInputOptions {
  /** The trained model's `tokenizer.eos_token`; overrides the layout's. Needed when the layout appends one. */
  eosToken?: string;
  /**
   * The trained model's chat template (`readChatTemplate` of its tokenizer_config.json), to render
   * chat layouts here instead of on the server; needed when the layout edits the rendered text.
   */
  chatTemplate?: ChatTemplate;
}

/**
 * The input that reproduces a training layout (`ScoringLayout`, from the export's layout file)
 * for one prompt and plan text: TRL text rows become `prompt + plan + eos`, OpenRLHF rows
 * `(prompt + plan).rstrip("\n") + " " + eos` (either left as is when it already ends with the
 * EOS token), chat layouts the messages `[user: prompt, assistant: plan]` (rendered here and
 * edited when the layout strips or appends, else sent for the server's own template).
 * Throws a UserError, at client creation, when the layout needs an EOS token or a chat
 * template that was not given.
 *
 * @example
 * scoringInput({ input: 'text', stripTrailingNewlines: false, eos: 'append', eosToken: '</s>', addSpecialTokens: true }, 'Task', 'Plan')
 * // { kind: 'text', text: 'TaskPlan</s>', addSpecialTokens: true }
 */
export function scoringInput(layout: ScoringLayout, prompt: string, plan: string, options: ScoringInputOptions = {}): ScoringInput {
  const eosToken = options.eosToken ?? layout.eosToken ?? undefined;
  const edits = layout.stripTrailingNewlines || layout.eos !== 'none';
  if (layout.input === 'chat' && !edits && !options.chatTemplate) {
    return { kind: 'messages', messages: [{ role: 'user', content: prompt }, { role: 'assistant', content: plan }] };
  }
  let text: string;
  if (layout.input === 'chat') {
    if (!options.chatTemplate) {
      throw new UserError(
        'the model was trained on chat-template text with its trailing newlines removed and an EOS token appended (OpenRLHF --apply_chat_template), which a server-side template does not reproduce; ' +
          "pass chatTemplate: the path of the trained model's tokenizer_config.json, to render it here with the model's own template",
      );
    }
    text = options.chatTemplate.render([{ role: 'user', content: prompt }, { role: 'assistant', content: plan }]);
  } else {
    text = prompt + plan;
  }
  if (layout.stripTrailingNewlines) text = text.replace(/\n+$/, '');
  if (layout.eos !== 'none') {
    if (eosToken === undefined) {
      throw new UserError(
        `the model was trained with its tokenizer's EOS token appended (${layout.eos === 'append' ? 'TRL' : 'OpenRLHF'}) and reads the reward there; ` +
          "pass eosToken (the trained model's tokenizer.eos_token, e.g. '<|endoftext|>' or '</s>'), or export with --eos-token to record it in the layout file",
      );
    }
    if (!text.endsWith(eosToken)) text += layout.eos === 'append' ? eosToken : ` ${eosToken}`;
  }
  return { kind: 'text', text, addSpecialTokens: layout.addSpecialTokens };
}

/** Checks at creation that a layout can be scored with these options (throws the UserError scoringInput would). */
export function assertScorable(layout: ScoringLayout, options: ScoringInputOptions): void {
  scoringInput(layout, '', '', options);
}
