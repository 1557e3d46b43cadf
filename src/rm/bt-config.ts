import { z } from 'zod';
import { InvalidInputError, zodIssues } from '../core/index.js';
import { DEFAULT_ENCODER_SPEC_TEXT, EncoderSpecSchema, parseEncoderSpec } from './features/encoder-spec.js';
import { HeadConfigSchema } from './heads/head-config.js';

/**
 * Hyperparameters chosen on the validation split: one head is trained for every combination
 * (early stopping picks each one's epochs) and the one with the lowest validation loss is kept.
 * Each hashed dimension needs its own encoding pass; L2 and learning rates reuse one.
 */
export const BtTuningSchema = z.strictObject({
  /** @default [1e-6, 1e-3] */
  l2: z.array(z.number().min(0)).min(1).default([1e-6, 1e-3]),
  /** @default [0.003, 0.03] */
  learningRate: z.array(z.number().positive().max(10)).min(1).default([0.003, 0.03]),
  /** log2 of the hashed dimension. @default the encoder's own only */
  hashBits: z.array(z.number().int().min(8).max(24)).min(1).optional(),
});
export type BtTuning = z.infer<typeof BtTuningSchema>;

/**
 * Bradley-Terry training configuration, in the spirit of TRL's `RewardConfig`
 * (`trl/trainer/reward_config.py`): the loss is `-log sigmoid(r_w - r_l - margin)` times the
 * pair weight, plus optional reward centering and L2, minimised with Adam over minibatches.
 * A field's metadata is its `orchrm rm train` flag (help text, and the flag's name where it is
 * not the key's: `--epochs`), where it has one.
 */
export const BtConfigSchema = z.strictObject({
  /** Features: the spec grammar string (see ENCODER_SPEC_GRAMMAR) or a spec object. @default 'shape' */
  encoder: z.preprocess((value) => (typeof value === 'string' ? parseEncoderSpec(value) : value), EncoderSpecSchema).default(() => parseEncoderSpec(DEFAULT_ENCODER_SPEC_TEXT)),
  /**
   * Encoders to choose from (issue 21): each is trained (tuned as `tune` says, without bootstrap
   * heads) and the one with the best accuracy on the validation split's valid-vs-valid outcome
   * pairs is kept, its spec replacing `encoder`; the first listed wins a tie. Test pairs never
   * take part. Without validation outcome pairs (a label-free dataset) the lowest validation loss
   * decides. @default none: `encoder` as given
   */
  encoderCandidates: z
    .array(z.preprocess((value) => (typeof value === 'string' ? parseEncoderSpec(value) : value), EncoderSpecSchema))
    .min(1)
    .max(8, 'name at most 8 candidate encoders: each costs a full (tuned) training')
    .optional(),
  /** @default { kind: 'linear' } */
  head: HeadConfigSchema.default({ kind: 'linear' }),
  /**
   * Adam step size. @default 0.01 (TRL's 1e-5 suits fine-tuning a transformer; a hashed linear
   * model or small MLP trained from scratch wants a much larger step)
   */
  learningRate: z.number().positive().max(10).default(0.01),
  /** 'linear' decays the rate to 0 over `maxEpochs` (TRL's default `lr_scheduler_type`). @default 'linear' */
  lrSchedule: z.enum(['linear', 'constant']).default('linear'),
  /** Pairs per minibatch. @default 64 */
  batchSize: z.number().int().min(1).default(64),
  /** @default 20 */
  maxEpochs: z.number().int().min(1).max(10_000).default(20).meta({ flag: 'epochs', description: 'most epochs' }),
  /** L2 coefficient: adds `l2/2 * ||w||^2` for weights (not biases). On the sparse layer it is applied lazily, to the rows a minibatch touches. @default 1e-6 */
  l2: z.number().min(0).default(1e-6),
  /**
   * Reward centering `coef * mean((r_w + r_l)^2)` (TRL `center_rewards_coefficient`, from
   * Eisenstein et al. 2023, "Helping or Herding?", who recommend 0.01). @default none
   */
  centerRewardsCoefficient: z.number().min(0).optional(),
  /** Epochs without validation-loss improvement before stopping; 0 never stops early. @default 3 */
  earlyStoppingPatience: z.number().int().min(0).default(3),
  /** Smallest validation-loss decrease that counts as an improvement. @default 1e-4 */
  minDelta: z.number().min(0).default(1e-4),
  /** Adam's moment decays and epsilon (PyTorch defaults). */
  adamBeta1: z.number().min(0).max(1).default(0.9),
  adamBeta2: z.number().min(0).max(1).default(0.999),
  adamEpsilon: z.number().positive().default(1e-8),
  /**
   * Hyperparameter search on the validation split (`BtTuningSchema`); `false` trains once with
   * `l2` and `learningRate` as given. Without validation pairs nothing can be tuned and the
   * given values are used (the model's provenance says so). @default the default grid
   */
  tune: z.union([z.literal(false), BtTuningSchema]).default(() => BtTuningSchema.parse({})),
  /**
   * Heads trained besides the model's own, each on a bootstrap resample of the training tasks
   * with the chosen hyperparameters (`trainBootstrapHeads`), stored in the same model file: their
   * disagreement is the model's uncertainty, which `rm+templates` reads (issue 21). 0 trains
   * none. @default 5
   */
  ensembleSize: z.number().int().min(0).max(32).default(5).meta({ flag: 'ensemble', description: 'bootstrap heads trained besides the model, for its uncertainty (0: none)' }),
  /** Seeds the minibatch order and the MLP initialisation. @default 0 */
  seed: z.number().int().min(0).max(0xffffffff).default(0).meta({ description: 'seed of minibatch order and initialisation' }),
});
export type BtConfig = z.infer<typeof BtConfigSchema>;
export type BtConfigInput = z.input<typeof BtConfigSchema>;

/** Validates a training configuration; the error names each bad field. */
export function parseBtConfig(input: BtConfigInput = {}): BtConfig {
  const result = BtConfigSchema.safeParse(input);
  if (!result.success) throw new InvalidInputError('reward model training config', zodIssues(result.error));
  return result.data;
}
