import { z } from 'zod';

/** A linear head: r = w . x + b over the sparse features. */
export const LinearHeadConfigSchema = z.strictObject({ kind: z.literal('linear') });

/**
 * A one-hidden-layer MLP: r = w2 . act(W1^T x + b1) + b2. W1 is stored row per input feature,
 * so the first layer is a sparse-dense product and its gradient touches only active rows.
 */
export const MlpHeadConfigSchema = z.strictObject({
  kind: z.literal('mlp'),
  /** Hidden width. @default 32 */
  hidden: z.number().int().min(1).max(1024).default(32),
  /** @default 'relu' */
  activation: z.enum(['relu', 'tanh']).default('relu'),
  /** Standard deviation of the initial W1 entries (inputs have norm about 1 per feature family). @default 0.1 */
  initScale: z.number().positive().max(10).default(0.1),
  /**
   * Storage of the sparse first layer (and its gradient and Adam moments). float32 halves the
   * memory traffic of a layer read in random rows (a 16-unit row is one 64-byte cache line),
   * which is what bounds training speed; float64 is for exact numerics such as gradient checks.
   * @default 'float32'
   */
  firstLayerPrecision: z.enum(['float32', 'float64']).default('float32'),
});

export const HeadConfigSchema = z.discriminatedUnion('kind', [LinearHeadConfigSchema, MlpHeadConfigSchema]);
export type HeadConfig = z.infer<typeof HeadConfigSchema>;
export type HeadConfigInput = z.input<typeof HeadConfigSchema>;
export type MlpHeadConfig = z.infer<typeof MlpHeadConfigSchema>;
