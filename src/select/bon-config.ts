import { z } from 'zod';
import { UserError } from '../core/index.js';
import { DEFAULT_TEMPLATE_MARGIN } from '../rm/index.js';
import { OBJECTIVE_NAMES, type SelectionObjective } from './selection-objective.js';
import { STRATEGY_NAMES, TEMPLATE_STRATEGIES, type StrategyName } from './selection-strategy.js';

/** The N values of the curve. */
export const DEFAULT_NS = [1, 2, 4, 8, 16] as const;

/**
 * Prices per execution token the frontier sweeps (issue 22): from 0 (the most accurate plan) to
 * 1e-4, where 10,000 tokens cost as much as a sure answer (the cheapest plan nearly always).
 */
export const DEFAULT_FRONTIER_PRICES = [0, 1e-7, 3e-7, 1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4] as const;
/** Margins of expected accuracy the frontier sweeps with `cheapest-within`. */
export const DEFAULT_FRONTIER_MARGINS = [0, 0.01, 0.02, 0.05, 0.1, 0.2] as const;

/**
 * Settings of a Best-of-N experiment (issue 6), checked at the boundary. Every N uses the
 * first N of the same sampled plans, so results are comparable task by task across strategies
 * and across N. A field's metadata is its `orchrm bon` flag (help text), where it has one.
 */
export const BonConfigSchema = z.strictObject({
  /** N values evaluated; max(ns) plans are sampled per task. @default [1, 2, 4, 8, 16] */
  ns: z
    .array(z.number().int().min(1).max(256))
    .min(1)
    .default([...DEFAULT_NS])
    .transform((ns) => [...new Set(ns)].sort((a, b) => a - b)),
  /**
   * Strategies run. @default all; `rm+templates` and `rm-templates-only` only with the template
   * pool (asking for them without the pool is an error)
   */
  strategies: z
    .array(z.enum(STRATEGY_NAMES))
    .min(1)
    .optional()
    .transform((names) => (names === undefined ? undefined : STRATEGY_NAMES.filter((name) => names.includes(name)))),
  /**
   * `sampled`: the N plans the orchestrator wrote. `sampled+templates`: also the template plans
   * (`PlanTemplateLibrary`), which `rm+templates` chooses among and which run on every task as
   * the fixed-plan baselines (`fixed:<name>`, `best-fixed`, `best-fixed-per-family`).
   * @default 'sampled'
   */
  pool: z
    .enum(['sampled', 'sampled+templates'])
    .default('sampled')
    .meta({
      placeholder: 'pool',
      description: 'sampled: choose among the N sampled plans; sampled+templates: also run every template plan on every task (fixed-plan baselines) and let rm+templates choose among samples and templates',
    }),
  /** Executions of `rm-topk-vote`. @default 3 (an odd count, so two agreeing answers decide) */
  topK: z.number().int().min(1).default(3).meta({ placeholder: 'k', description: 'executions of rm-topk-vote' }),
  /**
   * `rm-adaptive` keeps executing while best minus next score is below this, in reward logits:
   * a Bradley-Terry margin of 1 means the model gives the best plan only a 73% chance of
   * beating the next. @default 1
   */
  adaptiveMargin: z.number().min(0).default(1).meta({ placeholder: 'logits', description: 'rm-adaptive executes more while best - next score is below this' }),
  /**
   * `rm+templates` prefers the best template (a plan whose outcomes the model has seen) and takes
   * a sampled plan instead only when its score is higher by more than this many standard
   * deviations of the score difference over the model's bootstrap heads; a model without heads
   * takes a sample only when it scores strictly higher. @default 1
   */
  templateMargin: z.number().min(0).default(DEFAULT_TEMPLATE_MARGIN).meta({ placeholder: 'sds', description: 'rm+templates takes a sample over the best template, and both rm template strategies another template over their family reference, only when better by more than this many sds of the model heads; at the default 1 a model with a template router also says per family whether such switches paid on its validation tasks, and where they did not rm+templates takes the router\'s pick and writes no samples' }),
  /**
   * What `rm`, `rm+templates` and `rm-templates-only` maximise when they pick their plan
   * (`SelectionObjective`): `accuracy` the highest score, `price` expected accuracy minus
   * `pricePerToken` x predicted execution tokens, `cheapest-within` the fewest predicted tokens
   * within `margin` of the best expected accuracy. The last two need a cost-aware reward model
   * (`CostAwareRewardModel`: a model file of format 3 with a cost head and a calibration); with a
   * template router that prices the templates, `rm+templates` then reads only the samples and the
   * router's pick and takes the router's estimates for the templates.
   * @default 'accuracy'
   */
  objective: z.enum(OBJECTIVE_NAMES).default('accuracy').meta({
    placeholder: 'objective',
    description: 'what rm, rm+templates and rm-templates-only maximise: accuracy (highest score), price (expected accuracy - --price-per-token x predicted execution tokens) or cheapest-within (fewest predicted tokens within --margin of the best expected accuracy); under the last two, with a template router that prices the templates, rm+templates reads only the samples and the router\'s pick',
  }),
  /** Objective `price`: expected accuracy (0 to 1) given up per predicted execution token. @default 0.00001 (10,000 tokens for 0.1 of accuracy) */
  pricePerToken: z.number().min(0).default(1e-5).meta({ placeholder: 'price', description: 'objective price: expected accuracy (0 to 1) worth one predicted execution token' }),
  /** Objective `cheapest-within`: how far below the best expected accuracy (0 to 1) a cheaper plan may be. @default 0.02 */
  margin: z.number().min(0).max(1).default(0.02).meta({ placeholder: 'probability', description: 'objective cheapest-within: how far below the best expected accuracy (0 to 1) a cheaper plan may be' }),
  /**
   * Also run `rm+templates` at the largest N under every `frontierPrices` price and every
   * `frontierMargins` margin (besides the accuracy objective): the operating points of its
   * cost-accuracy frontier (`summarizeFrontier`). Needs the template pool and a cost-aware model.
   * @default false
   */
  frontier: z.boolean().default(false).meta({ description: 'also run rm+templates at the largest N under a sweep of prices and margins: its cost-accuracy frontier against every fixed plan' }),
  /** @default DEFAULT_FRONTIER_PRICES */
  frontierPrices: z.array(z.number().min(0)).default([...DEFAULT_FRONTIER_PRICES]),
  /** @default DEFAULT_FRONTIER_MARGINS */
  frontierMargins: z.array(z.number().min(0).max(1)).default([...DEFAULT_FRONTIER_MARGINS]),
  /** Seed of plan sampling, execution, judge calls and the bootstrap. @default 0 */
  seed: z.number().int().default(0).meta({ description: 'seed of sampling, execution, judging and bootstrap' }),
  /** Paired-bootstrap resamples per comparison. @default 2000 */
  bootstrapResamples: z.number().int().min(100).default(2000),
  /** Tasks worked at once. @default 4 */
  concurrency: z.number().int().min(1).default(4).meta({ description: 'tasks worked at once' }),
});
export type BonConfig = Omit<z.infer<typeof BonConfigSchema>, 'strategies'> & { strategies: StrategyName[] };
export type BonConfigInput = z.input<typeof BonConfigSchema>;

/** Parses a Best-of-N config and resolves its strategies against the pool; the error says what to change. */
export function parseBonConfig(input: BonConfigInput = {}): BonConfig {
  const parsed = BonConfigSchema.parse(input);
  const withTemplates = parsed.pool === 'sampled+templates';
  const needPool = parsed.strategies?.filter((name) => TEMPLATE_STRATEGIES.has(name)) ?? [];
  if (needPool.length > 0 && !withTemplates) throw new UserError(`strategy ${needPool.join(' and ')} needs the template pool: set pool to sampled+templates (bon --pool sampled+templates)`);
  if (parsed.frontier && !withTemplates) throw new UserError('the frontier runs rm+templates, which needs the template pool: set pool to sampled+templates (bon --pool sampled+templates --frontier)');
  const strategies = parsed.strategies ?? STRATEGY_NAMES.filter((name) => withTemplates || !TEMPLATE_STRATEGIES.has(name));
  return { ...parsed, strategies };
}

/** The objective a config sets for the rm strategies. */
export function objectiveOf(config: Pick<BonConfig, 'objective' | 'pricePerToken' | 'margin'>): SelectionObjective {
  if (config.objective === 'price') return { kind: 'price', pricePerToken: config.pricePerToken };
  if (config.objective === 'cheapest-within') return { kind: 'cheapest-within', margin: config.margin };
  return { kind: 'accuracy' };
}

/** The operating points of the frontier: the accuracy objective, then each price, then each margin. */
export function frontierObjectives(config: Pick<BonConfig, 'frontierPrices' | 'frontierMargins'>): SelectionObjective[] {
  return [
    { kind: 'accuracy' },
    ...config.frontierPrices.map((pricePerToken): SelectionObjective => ({ kind: 'price', pricePerToken })),
    ...config.frontierMargins.map((margin): SelectionObjective => ({ kind: 'cheapest-within', margin })),
  ];
}
