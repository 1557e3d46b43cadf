import { z } from 'zod';
import type { Pair } from '../core/pair.js';
import { defaultBlockCatalog, parsePlan, renderParseResult, type BlockCatalog } from '../plan/index.js';

export const PairExportFormatSchema = z.enum(['trl', 'openrlhf', 'orchrm']);
export type PairExportFormat = z.infer<typeof PairExportFormatSchema>;

/** Source names of the published OrchRM dataset (PAPER.md) for our two sources that have one. */
export const PUBLISHED_SOURCE_NAMES: Readonly<Record<string, string>> = {
  outcome: 'correct-over-incorrect',
  checkpoint: 'specialized-over-base',
};

/** One row of the published OrchRM preference dataset; extra fields are ignored on import. */
export const PublishedPairSchema = z.object({
  input: z.string().min(1),
  chosen: z.string(),
  rejected: z.string(),
  source: z.string().min(1),
});
export type PublishedPair = z.infer<typeof PublishedPairSchema>;

/** Key names of an OpenRLHF preference row (its `--prompt_key`, `--chosen_key`, `--rejected_key`). */
export const OpenRlhfKeysSchema = z.strictObject({
  prompt: z.string().min(1).default('prompt'),
  chosen: z.string().min(1).default('chosen'),
  rejected: z.string().min(1).default('rejected'),
  margin: z.string().min(1).default('margin'),
});
export type OpenRlhfKeys = z.infer<typeof OpenRlhfKeysSchema>;

export interface PairRowOptions {
  /** `raw`: the plan text as the orchestrator wrote it; `canonical`: its canonical rendering (what orchrm's reward model reads). @default 'raw' */
  planText?: 'raw' | 'canonical';
  /** @default OpenRLHF's own key names */
  openRlhfKeys?: OpenRlhfKeys;
  /** Blocks plan text is read against when rendering canonically. @default the built-in blocks */
  catalog?: BlockCatalog;
}

/**
 * One exported line: TRL `{prompt, chosen, rejected, margin?}`, OpenRLHF the same with
 * configurable keys, or the published OrchRM layout `{input, chosen, rejected, source}` with
 * `outcome`/`checkpoint` written as `correct-over-incorrect`/`specialized-over-base`.
 */
export function pairToRow(pair: Pair, format: PairExportFormat, options: PairRowOptions = {}): Record<string, unknown> {
  const { planText = 'raw', openRlhfKeys = OpenRlhfKeysSchema.parse({}), catalog = defaultBlockCatalog() } = options;
  const text = (raw: string) => (planText === 'raw' ? raw : renderParseResult(parsePlan(raw, { catalog }), catalog));
  const chosen = text(pair.winner.planText);
  const rejected = text(pair.loser.planText);
  if (format === 'orchrm') return { input: pair.question, chosen, rejected, source: PUBLISHED_SOURCE_NAMES[pair.source] ?? pair.source };
  const keys = format === 'trl' ? OpenRlhfKeysSchema.parse({}) : openRlhfKeys;
  return {
    [keys.prompt]: pair.question,
    [keys.chosen]: chosen,
    [keys.rejected]: rejected,
    ...(pair.margin !== undefined && { [keys.margin]: pair.margin }),
  };
}
