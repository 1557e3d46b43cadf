import { z } from 'zod';
import { PAIR_SOURCES } from '../core/pair.js';
import { ProcessRubricSchema } from './process-rubric.js';

export const MinedSourceSchema = z.enum(PAIR_SOURCES);
export type MinedSource = z.infer<typeof MinedSourceSchema>;

export const CheckpointMinerConfigSchema = z.strictObject({
  /**
   * `outcome-at-least-as-good`: where both episodes were graded, keep the pair only when the later
   * checkpoint's outcome is at least as good; ungraded pairs are kept. `unconditional`: always keep.
   * @default 'outcome-at-least-as-good'
   */
  mode: z.enum(['outcome-at-least-as-good', 'unconditional']).default('outcome-at-least-as-good'),
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
 * @example PairMiningConfigSchema.parse({ sources: ['process'], process: { threshold: 0.2 } })
 */
export const PairMiningConfigSchema = z.strictObject({
  /** @default all four */
  sources: z.array(MinedSourceSchema).min(1).default([...PAIR_SOURCES]),
  /** Drives splits, subsampling and tie-breaks. @default 0 */
  seed: z.number().int().nonnegative().default(0),
  checkpoint: CheckpointMinerConfigSchema.prefault({}),
  process: ProcessRubricSchema.prefault({}),
  efficiency: EfficiencyMinerConfigSchema.prefault({}),
  caps: PairCapsSchema.prefault({}),
  balance: PairBalanceSchema.prefault({}),
  splits: SplitFractionsSchema.prefault({}),
});
export type PairMiningConfig = z.infer<typeof PairMiningConfigSchema>;
export type PairMiningConfigInput = z.input<typeof PairMiningConfigSchema>;
