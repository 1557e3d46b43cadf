import { z } from 'zod';
import { InvalidInputError, zodIssues } from '../core/index.js';

/**
 * GRPO settings, named and defaulted after TRL's `GRPOConfig` where it has the same knob
 * (`num_generations` = `groupSize`, `num_iterations` = `innerEpochs`, `epsilon` = `clipEpsilon`,
 * `beta` = `klCoefficient`, `scale_rewards` = `scaleRewards`). Each field's metadata is its
 * `orchrm grpo` flag: the help text, and the flag's name where it is not the key's (`--group`,
 * `--clip`, `--kl`); the CLI builds its options from this schema.
 */
export const GrpoConfigSchema = z.strictObject({
  /** Name of the checkpoint training produces (letters, digits, `_`, `.`, `-`). @default 'grpo' */
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, "_", "." or "-"').default('grpo').meta({ description: 'name of the trained checkpoint' }),
  /** GRPO steps: sample, reward, update. @default 20 */
  steps: z.number().int().min(1).default(20).meta({ description: 'GRPO steps' }),
  /** Train tasks per step (each step takes the next ones from the task list, wrapping). @default 16 */
  tasksPerStep: z.number().int().min(1).default(16).meta({ description: 'train tasks per step' }),
  /** G: plans sampled per task; advantages are relative within this group (TRL `num_generations`, default 8). @default 8 */
  groupSize: z.number().int().min(2).default(8).meta({ flag: 'group', description: 'G: plans sampled per task' }),
  /** Step size of gradient ascent on the objective. @default 0.5 */
  learningRate: z.number().positive().finite().default(0.5).meta({ description: 'step size' }),
  /**
   * Gradient steps per batch of samples (TRL `num_iterations`, μ in the GRPO paper). The first
   * is on-policy (ratio 1); later ones are where ratio clipping acts. @default 2
   */
  innerEpochs: z.number().int().min(1).default(2).meta({ description: 'gradient steps per batch (TRL num_iterations)' }),
  /** PPO clipping range ε: the ratio is clipped to [1 - ε, 1 + ε] (TRL `epsilon`, default 0.2). @default 0.2 */
  clipEpsilon: z.number().min(0).max(1).default(0.2).meta({ flag: 'clip', placeholder: 'eps', description: 'PPO ratio clipping range' }),
  /**
   * β of the KL penalty to the reference checkpoint (TRL `beta`; 0 turns it off, as TRL's
   * default; DeepSeekMath used 0.04). Estimated per sample with Schulman's k3 (see `klK3`). @default 0
   */
  klCoefficient: z.number().min(0).default(0).meta({ flag: 'kl', placeholder: 'beta', description: 'KL penalty to the starting checkpoint (k3 estimator); 0 = off' }),
  /** Divide advantages by the group's standard deviation (TRL `scale_rewards`; Dr. GRPO turns it off). @default true */
  scaleRewards: z.boolean().default(true).meta({ description: 'divide advantages by the group standard deviation' }),
  /** Added to the group standard deviation before dividing (TRL uses 1e-4). @default 1e-4 */
  stdEpsilon: z.number().positive().default(1e-4).meta({ description: 'added to the group standard deviation before dividing' }),
  /** Held-out evaluation every this many steps (and before the first and after the last); 0 = only those two. @default 5 */
  evalInterval: z.number().int().min(0).default(5).meta({ description: 'held-out evaluation every n steps (and first and last)' }),
  /** Checkpoint hand-off every this many steps (the final checkpoint is always handed off); 0 = only the final. @default 0 */
  checkpointInterval: z.number().int().min(0).default(0).meta({ description: 'checkpoint hand-off every n steps (and the final one); 0 = only the final' }),
  /** Seed of every sample and reward draw. @default 0 */
  seed: z.number().int().default(0).meta({ description: 'seed' }),
});

export type GrpoConfig = z.infer<typeof GrpoConfigSchema>;
export type GrpoConfigInput = z.input<typeof GrpoConfigSchema>;

/** Validates GRPO settings and fills defaults; throws `InvalidInputError` naming the field. */
export function parseGrpoConfig(input: GrpoConfigInput = {}): GrpoConfig {
  const parsed = GrpoConfigSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError('GRPO config', zodIssues(parsed.error));
  return parsed.data;
}
