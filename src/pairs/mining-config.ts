import { z } from 'zod';
import { PAIR_SOURCES } from '../core/index.js';
import { ProcessSignalsConfigSchema } from './process-signals.js';

export const MinedSourceSchema = z.enum(PAIR_SOURCES);
export type MinedSource = z.infer<typeof MinedSourceSchema>;

export const CheckpointMinerConfigSchema = z.strictObject({
  /**
   * `unconditional`: always keep (label-free). `outcome-at-least-as-good`: where both episodes
   * were graded, keep the pair only when the later checkpoint's outcome is at least as good, which
   * reads grades (refused in label-free mining).
   * @default 'unconditional'
   */
  mode: z.enum(['outcome-at-least-as-good', 'unconditional']).default('unconditional'),
  /** Checkpoint names from earliest to latest; decides when training steps are not recorded. @default [] */
  order: z.array(z.string().min(1)).default([]),
  /** Checkpoint names that are earlier than every other checkpoint of the same orchestrator (the paper's base). @default ['base'] */
  baseCheckpoints: z.array(z.string().min(1)).default(['base']),
});
export type CheckpointMinerConfig = z.infer<typeof CheckpointMinerConfigSchema>;

export const EfficiencyMinerConfigSchema = z.strictObject({
  /** The loser must have spent at least this many times the winner's execution tokens. @default 1.5 */
  minTokenRatio: z.number().gt(1).default(1.5),
});
export type EfficiencyMinerConfig = z.infer<typeof EfficiencyMinerConfigSchema>;

const positiveCap = z.number().int().positive().optional();

/** A reliability unit: a source, or `process:<signal>` for each process signal. */
export const ReliabilityUnitSchema = z.string().regex(/^(outcome|checkpoint|efficiency|process:[a-z]+)$/, 'a unit is outcome, checkpoint, efficiency or process:<signal>');

export const ReliabilityConfigSchema = z.strictObject({
  /**
   * How each unit's reliability (the chance its pairs point the right way) is estimated, and then
   * used to weight its pairs. `agreement`: label-free, from how often units agree on the same
   * episode pairs (a Dawid-Skene style triplet estimate). `calibration`: from agreement with
   * graded outcomes on train-split tasks (`calibrationTasks` of them; reads those grades only).
   * `auto`: `calibration` unless mining is label-free, then `agreement`. `none`: every unit
   * weighs the same.
   * @default 'auto'
   */
  method: z.enum(['auto', 'agreement', 'calibration', 'none']).default('auto'),
  /** `calibration`: how many graded tasks (the first by a seeded hash) to estimate from. @default all graded tasks */
  calibrationTasks: z.number().int().positive().optional(),
  /** Units whose reliability is set, not estimated. @default efficiency 0.6 (a cost preference, not an accuracy signal) and process:validity 0.99 (an invalid plan runs nothing) */
  fixed: z.partialRecord(ReliabilityUnitSchema, z.number().min(0.5).max(1)).default({ efficiency: 0.6, 'process:validity': 0.99 }),
  /** Reliability assumed for a unit that cannot be estimated (too few overlaps). @default 0.7 */
  prior: z.number().min(0.5).max(1).default(0.7),
  /** Least number of shared episode pairs behind an agreement rate. @default 30 */
  minOverlap: z.number().int().positive().default(30),
});
export type ReliabilityConfig = z.infer<typeof ReliabilityConfigSchema>;

export const PairCapsSchema = z.strictObject({
  /** Most pairs one source keeps per task (the strongest evidence first). @default 16 */
  perTaskPerSource: z.number().int().positive().default(16),
  /** Most pairs per task over all sources, taken round-robin across sources. @default 32 */
  perTask: z.number().int().positive().default(32),
  /** Most pairs per source over the whole dataset (a seeded sample). @default unlimited */
  perSource: positiveCap,
});

export const PairBalanceSchema = z.strictObject({
  /**
   * `weight`: keep every pair and set pair weights so each source's total weight is proportional to
   * its source weight, with mean pair weight 1. `count`: subsample (seeded) so pair counts are
   * proportional to source weights, pair weight 1. `none`: keep every pair with its source weight.
   * @default 'weight'
   */
  mode: z.enum(['weight', 'count', 'none']).default('weight'),
  /** Relative weight of each source. @default 1 for every source */
  sourceWeights: z.partialRecord(MinedSourceSchema, z.number().positive()).default({}),
});

export const SplitFractionsSchema = z
  .strictObject({
    train: z.number().min(0).max(1).default(0.8),
    validation: z.number().min(0).max(1).default(0.1),
    test: z.number().min(0).max(1).default(0.1),
  })
  .refine((fractions) => Math.abs(fractions.train + fractions.validation + fractions.test - 1) < 1e-9, 'split fractions must sum to 1');

/**
 * Everything `minePairs` does, as a JSON config file holds it (`orchrm pairs mine --config`);
 * every field is optional. Recorded with the dataset. docs/pairs.md describes each field.
 * @example PairMiningConfigSchema.parse({ sources: ['process'], process: { consensus: { threshold: 0.3 } } })
 */
export const PairMiningConfigSchema = z.strictObject({
  /**
   * No grade is read anywhere: grades are not loaded, only `checkpoint` (unconditional) and
   * `process` mine, and reliability comes from agreement between them. @default false
   */
  labelFree: z.boolean().default(false),
  /** @default all four; with `labelFree`, checkpoint and process */
  sources: z.array(MinedSourceSchema).min(1).optional(),
  /** Drives splits, subsampling and tie-breaks. @default 0 */
  seed: z.number().int().nonnegative().default(0),
  checkpoint: CheckpointMinerConfigSchema.prefault({}),
  process: ProcessSignalsConfigSchema.prefault({}),
  efficiency: EfficiencyMinerConfigSchema.prefault({}),
  caps: PairCapsSchema.prefault({}),
  balance: PairBalanceSchema.prefault({}),
  splits: SplitFractionsSchema.prefault({}),
  reliability: ReliabilityConfigSchema.prefault({}),
})
  .transform((config) => ({
    ...config,
    sources: config.sources ?? (config.labelFree ? (['checkpoint', 'process'] as MinedSource[]) : [...PAIR_SOURCES]),
    reliability: { ...config.reliability, method: config.reliability.method === 'auto' ? (config.labelFree ? ('agreement' as const) : ('calibration' as const)) : config.reliability.method },
  }))
  .superRefine((config, context) => {
    if (!config.labelFree) return;
    for (const source of config.sources) {
      if (source === 'outcome' || source === 'efficiency') context.addIssue({ code: 'custom', path: ['sources'], message: `${source} pairs read grades; label-free mining takes checkpoint and process only` });
    }
    if (config.checkpoint.mode !== 'unconditional') context.addIssue({ code: 'custom', path: ['checkpoint', 'mode'], message: 'outcome-at-least-as-good reads grades; label-free mining needs unconditional' });
    if (config.reliability.method === 'calibration') context.addIssue({ code: 'custom', path: ['reliability', 'method'], message: 'calibration reads grades; label-free mining estimates reliability by agreement (or none)' });
  });
export type PairMiningConfig = z.infer<typeof PairMiningConfigSchema>;
export type PairMiningConfigInput = z.input<typeof PairMiningConfigSchema>;
