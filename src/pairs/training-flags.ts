import type { PairExportLayout } from './pair-export-layout.js';

/**
 * The flags that make each engine read an export as it was written, for `orchrm pairs export`
 * to print and docs/pairs.md to show:
 * - OpenRLHF `openrlhf.cli.train_rm`: 0.10.2 and later spell flags `--data.<name>`
 *   (`--data.dataset`, `--data.prompt_key`, ...) and `--model.margin_loss_enable`; 0.10.1 and
 *   earlier `--dataset`, `--prompt_key`, ..., `--margin_loss`. Its `prompt_key` defaults to
 *   None, which drops the task of text rows, so the flag is always given for them; messages rows
 *   carry the task inside the conversation and need `--apply_chat_template` with no `prompt_key`.
 * - TRL's RewardTrainer reads the `trl` rows as they are (`margin`, when present, enters its loss).
 *
 * @example trainingFlags(layout, 'train.jsonl') // ['OpenRLHF >= 0.10.2: --data.dataset train.jsonl --data.prompt_key prompt ...', ...]
 */
export function trainingFlags(layout: PairExportLayout, path: string): string[] {
  if (layout.format === 'orchrm') return ['the orchrm format is the published OrchRM layout, for orchrm pairs import; export --format trl or openrlhf to train elsewhere'];
  if (layout.format === 'trl') {
    return [
      `TRL RewardTrainer: train_dataset=load_dataset("json", data_files="${path}")["train"]` +
        (layout.form === 'messages' ? ' (conversational: the model\'s chat template is applied)' : ' (TRL appends the tokenizer\'s EOS token)') +
        (layout.keys.margin ? '; the margin column enters the loss' : ''),
    ];
  }
  const { prompt, chosen, rejected } = layout.keys;
  const margin = layout.keys.margin !== null;
  const current = [`--data.dataset ${path}`];
  const previous = [`--dataset ${path}`];
  if (layout.form === 'messages') {
    current.push('--data.apply_chat_template');
    previous.push('--apply_chat_template');
  } else {
    current.push(`--data.prompt_key ${prompt}`);
    previous.push(`--prompt_key ${prompt}`);
  }
  current.push(`--data.chosen_key ${chosen}`, `--data.rejected_key ${rejected}`);
  previous.push(`--chosen_key ${chosen}`, `--rejected_key ${rejected}`);
  if (margin) {
    current.push('--model.margin_loss_enable');
    previous.push('--margin_loss');
  }
  const note = layout.form === 'messages' ? ' (leave prompt_key unset: the task is inside the conversation)' : '';
  return [`OpenRLHF >= 0.10.2: ${current.join(' ')}${note}`, `OpenRLHF <= 0.10.1: ${previous.join(' ')}${note}`];
}
