import { z } from 'zod';
import { ownEntry, type Pair, UserError } from '../core/index.js';
import { canonicalPlanText, defaultBlockCatalog, type BlockCatalog } from '../plan/index.js';

export const PairExportFormatSchema = z.enum(['trl', 'openrlhf', 'orchrm']);
export type PairExportFormat = z.infer<typeof PairExportFormatSchema>;

/**
 * How a row holds the task and plans: `text` as strings, `messages` as chat messages (a user
 * message with the task, an assistant message with the plan), for engines that apply the
 * model's chat template (TRL's conversational format, OpenRLHF's `--apply_chat_template`).
 */
export const PairExportFormSchema = z.enum(['text', 'messages']);
export type PairExportForm = z.infer<typeof PairExportFormSchema>;

/** Source names of the published OrchRM dataset (PAPER.md) for our two sources that have one. */
export const PUBLISHED_SOURCE_NAMES: Readonly<Record<string, string>> = {
  outcome: 'correct-over-incorrect',
  checkpoint: 'specialized-over-base',
};

/**
 * orchrm's sources that the published vocabulary has no name for; the `orchrm` format writes
 * them under these names, an extension of the published layout (docs/pairs.md).
 */
export const EXTENSION_SOURCE_NAMES: Readonly<Record<string, string>> = {
  process: 'process',
  efficiency: 'efficiency',
};

/** One row of the published OrchRM preference dataset; extra fields are ignored on import. */
export const PublishedPairSchema = z.object({
  input: z.string().min(1),
  chosen: z.string(),
  rejected: z.string(),
  source: z.string().min(1),
});
export type PublishedPair = z.infer<typeof PublishedPairSchema>;

/**
 * Key names of an OpenRLHF preference row (its `--data.prompt_key`, `--data.chosen_key`,
 * `--data.rejected_key`). There is no margin key: OpenRLHF's RewardDataset reads the margin from
 * a column named `margin` whatever the flags say.
 */
export const OpenRlhfKeysSchema = z
  .strictObject({
    prompt: z.string().min(1).default('prompt'),
    chosen: z.string().min(1).default('chosen'),
    rejected: z.string().min(1).default('rejected'),
  })
  .superRefine((keys, context) => {
    const names = [keys.prompt, keys.chosen, keys.rejected];
    if (new Set(names).size < names.length) context.addIssue({ code: 'custom', message: `the prompt, chosen and rejected keys must differ, got ${names.join(', ')}` });
    if (names.includes('margin')) context.addIssue({ code: 'custom', message: '"margin" is the key OpenRLHF reads margins from; name the columns otherwise' });
  });
export type OpenRlhfKeys = z.infer<typeof OpenRlhfKeysSchema>;

/** A chat message in the layout TRL and OpenRLHF datasets use. */
export interface ExportedMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface PairRowOptions {
  /** `raw`: the plan text as the orchestrator wrote it; `canonical`: its canonical rendering (what orchrm's reward model reads). @default 'raw' */
  planText?: 'raw' | 'canonical';
  /** @default 'text' */
  form?: PairExportForm;
  /** @default OpenRLHF's own key names */
  openRlhfKeys?: OpenRlhfKeys;
  /**
   * Write `margin` on this row: the pair's margin, or 0 when it has none (a margin of 0 is the
   * plain Bradley-Terry loss). TRL's collator needs the key on every row or on none, so
   * `exportPairs` decides it once for the whole file. @default whether the pair has a margin
   */
  margin?: boolean;
  /** Blocks plan text is read against when rendering canonically. @default the built-in blocks */
  catalog?: BlockCatalog;
}

/**
 * One exported line:
 * - `trl`, text: `{prompt, chosen, rejected, margin?}`; messages: the same keys holding
 *   `[{role: 'user', content: task}]` and `[{role: 'assistant', content: plan}]` (TRL's
 *   conversational preference format with an explicit prompt);
 * - `openrlhf`, text: the same as TRL text with configurable keys; messages: `{chosen,
 *   rejected, margin?}` each holding the whole conversation `[user task, assistant plan]`, so
 *   OpenRLHF's `--apply_chat_template` reads the task without a `prompt_key`;
 * - `orchrm` (text only): the published layout `{input, chosen, rejected, source}` with
 *   `outcome`/`checkpoint` written as `correct-over-incorrect`/`specialized-over-base`.
 */
export function pairToRow(pair: Pair, format: PairExportFormat, options: PairRowOptions = {}): Record<string, unknown> {
  const { planText = 'raw', form = 'text', openRlhfKeys = OpenRlhfKeysSchema.parse({}), margin = pair.margin !== undefined } = options;
  const catalog = options.catalog ?? defaultBlockCatalog();
  const text = (raw: string) => (planText === 'raw' ? raw : canonicalPlanText(raw, catalog));
  const chosen = text(pair.winner.planText);
  const rejected = text(pair.loser.planText);
  const marginField = margin ? { margin: pair.margin ?? 0 } : {};
  if (format === 'orchrm') {
    if (form !== 'text') throw new UserError('the orchrm format is text only (the published layout has string fields); drop --form messages');
    return { input: pair.question, chosen, rejected, source: ownEntry(PUBLISHED_SOURCE_NAMES, pair.source) ?? ownEntry(EXTENSION_SOURCE_NAMES, pair.source) ?? pair.source };
  }
  const user: ExportedMessage = { role: 'user', content: pair.question };
  const assistant = (content: string): ExportedMessage[] => [{ role: 'assistant', content }];
  if (format === 'trl') {
    if (form === 'messages') return { prompt: [user], chosen: assistant(chosen), rejected: assistant(rejected), ...marginField };
    return { prompt: pair.question, chosen, rejected, ...marginField };
  }
  if (form === 'messages') return { [openRlhfKeys.chosen]: [user, ...assistant(chosen)], [openRlhfKeys.rejected]: [user, ...assistant(rejected)], ...marginField };
  return { [openRlhfKeys.prompt]: pair.question, [openRlhfKeys.chosen]: chosen, [openRlhfKeys.rejected]: rejected, ...marginField };
}
