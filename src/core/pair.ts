import { z } from 'zod';

/**
 * Where a preference came from: `outcome` = correct over incorrect, `checkpoint` =
 * later orchestrator checkpoint over earlier, `process` = better intermediate artifacts,
 * `efficiency` = equally correct but cheaper. Pairs imported from elsewhere keep their own
 * source names (e.g. the published `correct-over-incorrect`).
 */
export const PAIR_SOURCES = ['outcome', 'checkpoint', 'process', 'efficiency'] as const;
export const PairSourceSchema = z.string().min(1);
export type PairSource = z.infer<typeof PairSourceSchema>;

export const PairSplitSchema = z.enum(['train', 'validation', 'test']);
export type PairSplit = z.infer<typeof PairSplitSchema>;

/** One side of a pair: the plan text as the orchestrator wrote it, and the episode it came from. */
export const PairSideSchema = z.object({
  planText: z.string(),
  episodeId: z.string().optional(),
});
export type PairSide = z.infer<typeof PairSideSchema>;

/** A win-lose preference between two plans for the same task, with the evidence that decided it. */
export const PairSchema = z.object({
  id: z.string().min(1),
  /** Groups pairs mined together with one configuration. */
  datasetId: z.string().min(1),
  taskId: z.string().min(1),
  /** The task text the reward model reads with each plan. */
  question: z.string(),
  winner: PairSideSchema,
  loser: PairSideSchema,
  source: PairSourceSchema,
  /** Multiplies the pair's loss. @default 1 */
  weight: z.number().positive().default(1),
  /** Required score gap in the loss `-log sigmoid(r_w - r_l - margin)`. */
  margin: z.number().optional(),
  /** What decided the pair (scores, grades, token counts, checkpoints), as the miner recorded it. */
  evidence: z.record(z.string(), z.unknown()).default({}),
  /** Assigned by task id, so no task is in two splits. */
  split: PairSplitSchema.optional(),
});
export type Pair = z.infer<typeof PairSchema>;
export type PairInput = z.input<typeof PairSchema>;
