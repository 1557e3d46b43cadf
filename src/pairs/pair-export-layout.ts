import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../core/index.js';
import { PairExportFormatSchema, PairExportFormSchema, type PairExportForm, type PairExportFormat } from './pair-formats.js';

/**
 * Appended to an export's path for its layout file (`train.jsonl` -> `train.jsonl.orchrm-layout`).
 * Not `.json`: Hugging Face `datasets` (which TRL and OpenRLHF load files with) would take a
 * `.json` file in the same folder for data.
 */
export const LAYOUT_FILE_SUFFIX = '.orchrm-layout';

/**
 * How the engine the export is for turns a row into the text a reward model reads, so a
 * client can score (task, plan) in exactly that layout:
 * - `input`: `text`, the prompt (the task text) followed directly by the plan; `chat`, the
 *   messages `[user: task, assistant: plan]` through the model's own chat template;
 * - `stripTrailingNewlines`: the engine removes newlines at the end first (OpenRLHF);
 * - `eos`: what it appends: the tokenizer's EOS token (TRL, text only), a space and the EOS
 *   token (OpenRLHF), or nothing; neither appends it when the text already ends with it;
 * - `eosToken`: that token's text, when given at export (`--eos-token`);
 * - `addSpecialTokens`: whether the tokenizer adds its own special tokens (a BOS) on top.
 */
export const ScoringLayoutSchema = z.strictObject({
  input: z.enum(['text', 'chat']),
  stripTrailingNewlines: z.boolean(),
  eos: z.enum(['none', 'append', 'append-after-space']),
  eosToken: z.string().min(1).nullable(),
  addSpecialTokens: z.boolean(),
});
export type ScoringLayout = z.infer<typeof ScoringLayoutSchema>;

/** The layout file written next to every export (schema version 1). */
export const PairExportLayoutSchema = z.strictObject({
  kind: z.literal('orchrm-pair-export-layout'),
  version: z.literal(1),
  format: PairExportFormatSchema,
  form: PairExportFormSchema,
  /** Plans as written (`raw`) or their canonical rendering. */
  planText: z.enum(['raw', 'canonical']),
  /** The row keys holding the task (absent when the task is inside the messages), the plans and the margin. */
  keys: z.strictObject({ prompt: z.string().nullable(), chosen: z.string(), rejected: z.string(), margin: z.string().nullable() }),
  /** Rows written, and per exported source name. */
  rows: z.number().int().min(0),
  sources: z.record(z.string(), z.number().int().min(0)),
  /** How the target engine lays a row out for the model; null for the orchrm format, which no engine trains on as is. */
  scoring: ScoringLayoutSchema.nullable(),
});
export type PairExportLayout = z.infer<typeof PairExportLayoutSchema>;

/**
 * The scoring layout of an export (see ScoringLayoutSchema), from what TRL's RewardTrainer and
 * OpenRLHF's RewardDataset do with its rows:
 * - TRL text rows: `prompt + chosen`, then `eos_token` appended unless present, tokenized with
 *   the tokenizer's special tokens; TRL messages rows: the chat template, nothing appended;
 * - OpenRLHF, text or (with `--apply_chat_template`) messages: `(prompt + chosen).rstrip("\n")`,
 *   then `" " + eos_token` unless present, tokenized without special tokens.
 */
export function scoringLayout(format: PairExportFormat, form: PairExportForm, eosToken: string | undefined): ScoringLayout | null {
  const token = eosToken ?? null;
  if (format === 'orchrm') return null;
  if (format === 'trl') {
    return form === 'text'
      ? { input: 'text', stripTrailingNewlines: false, eos: 'append', eosToken: token, addSpecialTokens: true }
      : { input: 'chat', stripTrailingNewlines: false, eos: 'none', eosToken: token, addSpecialTokens: false };
  }
  return { input: form === 'text' ? 'text' : 'chat', stripTrailingNewlines: true, eos: 'append-after-space', eosToken: token, addSpecialTokens: false };
}

/** The default layout file of an export written to `path`. */
export function layoutPathFor(path: string): string {
  return `${path}${LAYOUT_FILE_SUFFIX}`;
}

/**
 * Reads and checks a layout file; a UserError naming the file when it is missing, not JSON or
 * not a layout of a version this orchrm reads.
 *
 * @example const layout = readPairExportLayout('train.jsonl.orchrm-layout');
 */
export function readPairExportLayout(path: string): PairExportLayout {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read the export layout ${path} (${(error as NodeJS.ErrnoException).code}); pass the ${LAYOUT_FILE_SUFFIX} file orchrm pairs export wrote next to the training data`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`the export layout ${path} is not JSON (${(error as Error).message})`);
  }
  const parsed = PairExportLayoutSchema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(`the export layout ${path}`, zodIssues(parsed.error), 'write it again with orchrm pairs export');
  return parsed.data;
}
