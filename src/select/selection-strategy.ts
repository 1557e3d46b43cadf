import type { Episode, PlanEstimate, Task, Usage } from '../core/index.js';
import type { ChatProvider } from '../llm/index.js';
import type { SelectionObjective } from './selection-objective.js';

/**
 * The Best-of-N strategies, in the order reports list them. `rm+templates` and
 * `rm-templates-only` need the template pool (`pool: 'sampled+templates'`); the others choose
 * among the N sampled plans only.
 */
export const STRATEGY_NAMES = ['single', 'first-valid', 'rm', 'rm+templates', 'rm-templates-only', 'rm-topk-vote', 'rm-adaptive', 'majority', 'judge', 'plan-judge', 'oracle'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** Strategies that need the template pool (`pool: 'sampled+templates'`). */
export const TEMPLATE_STRATEGIES: ReadonlySet<StrategyName> = new Set(['rm+templates', 'rm-templates-only']);

/** Strategies that rank candidates by the reward model's score (their picks record it). */
export const RANKING_STRATEGIES: ReadonlySet<StrategyName> = new Set(['rm', 'rm+templates', 'rm-templates-only', 'rm-topk-vote', 'rm-adaptive']);

/** A fixed-plan baseline: one template plan executed on every task (`fixed:<template name>`). */
export type FixedStrategyName = `fixed:${string}`;

/**
 * Rows a Best-of-N table can hold: strategies, fixed templates, the best fixed plans chosen after
 * the fact on the same tasks, and the fixed plan per family chosen on the training data
 * (`train-best-fixed-per-family`).
 */
export type OutcomeName = StrategyName | FixedStrategyName | 'best-fixed' | 'best-fixed-per-family' | 'train-best-fixed-per-family';

/**
 * What a strategy sees of one task at one N: the first N sampled plans, and lazy, cached access
 * to everything that costs tokens (executing a plan, scoring plans, asking the judge). A plan
 * executed once serves every strategy and every N that executes it; each strategy still reports
 * the tokens of what it executed itself (see `Selection.executed`).
 */
export interface SelectionContext {
  task: Task;
  /** N: plans 0..n-1 of the task's sample are the candidates. */
  n: number;
  /** Raw plan texts of the candidates, in sample order. */
  planTexts: readonly string[];
  /** Canonical renderings of the candidates (what a reward model or plan judge reads). */
  canonicalTexts: readonly string[];
  /** Whether each candidate parsed and validated. */
  valid: readonly boolean[];
  /**
   * Template plans in the pool (`pool: 'sampled+templates'`), with their pool index (after every
   * sampled plan); empty otherwise.
   */
  templates: readonly { name: string; index: number }[];
  /** Executes candidate `index`, one of the first N or a template (once; later calls return the same episode). */
  execute(index: number): Promise<Episode>;
  /** Reward-model scores of every pool candidate, by pool index (sampled plans, then templates); throws when no reward model is set. */
  scores(): Promise<readonly number[]>;
  /** Per pool candidate, the scores of the reward model's bootstrap heads; undefined when it has none. */
  memberScores(): Promise<readonly (readonly number[])[] | undefined>;
  /**
   * Per template (in `templates` order), the success probability the reward model's template
   * router predicts on this task; undefined when the run does not route by it (no router, or one
   * that does not know every template). `rm+templates` and `rm-templates-only` then take the
   * template it rates highest, and no reference template applies.
   */
  templateRoutes(): readonly number[] | undefined;
  /**
   * Per template (in `templates` order), the execution tokens the router expects it to spend on
   * the task (its fit over the task's routing and size facts, or its record's mean on the suite for
   * a router written before that fit); undefined without `templateRoutes` or without either.
   * `rm-templates-only` prices its templates by it under a cost objective.
   */
  templateRouteCosts(): readonly number[] | undefined;
  /**
   * What reading the sampled plans is expected to add to the router's priced pick at this price
   * per token (the model's estimate from its training tasks, `estimateReadingGain`); undefined
   * without `templateRouteCosts` or without an estimate for the task's suite at `templateMargin`.
   */
  readingGain(pricePerToken: number): number | undefined;
  /**
   * With `templateRoutes`: whether a sampled plan may replace the router's pick on this task, at
   * `templateMargin` (the model's record of such switches on its validation tasks,
   * `TemplateRouter.samplesMayReplace`). True without a router or without that record.
   */
  samplesMayReplace(): boolean;
  /** Tokens the reward model reads to score candidate `index` (task text + canonical plan). */
  scoreTokens(index: number): number;
  /** Tokens of the task text alone: what a template router reads to rate the templates (it reads no plan). */
  questionTokens: number;
  /** Answers slot-`judge` calls: the environment's provider, which routes them to its judge model. */
  judge: ChatProvider;
  /** Seed of this task and N for the judge's calls. */
  seed: number;
  /** Top-k of `rm-topk-vote`. */
  topK: number;
  /** `rm-adaptive`: keep executing while best score minus next score is below this (logit units). */
  adaptiveMargin: number;
  /** `rm+templates`: a sample replaces the best template only when better by more than this many standard deviations of the model's heads. */
  templateMargin: number;
  /**
   * `rm+templates` and `rm-templates-only`: pool index of the reference template of the task's
   * suite, the template the reward model ranks first on the most tasks of that suite in this run
   * (`templateReferences`: a task-blind choice from the model's own scores, no grade read).
   * Another template replaces it only when better by more than `templateMargin` standard
   * deviations of the heads' score difference. Undefined: the best-scored template is taken.
   */
  referenceTemplate?: number;
  /** What `rm`, `rm+templates` and `rm-templates-only` maximise when they pick their plan (`SelectionObjective`). */
  objective: SelectionObjective;
  /** Per pool candidate, the cost-aware model's success probability and predicted execution tokens; throws when the model cannot estimate. */
  estimates(): Promise<readonly PlanEstimate[]>;
}

/** What a strategy did for one task at one N. */
export interface Selection {
  /** Whether the answer it settled on is correct. */
  correct: boolean;
  /** Candidate whose answer it settled on; undefined when none (e.g. oracle, nothing answered). */
  chosen: number | undefined;
  /** Candidates it executed, in the order it executed them. */
  executed: readonly number[];
  /** Plans it had the orchestrator write (1 for `single`, N for everything else). */
  plansWritten: number;
  /** It also considered the template plans (their writing and scoring are billed to it). */
  usedTemplates?: boolean;
  /** Tokens spent choosing: reward-model reading or judge calls. */
  verification: Usage;
  /** The judge's reply could not be read and the strategy fell back to candidate 0. */
  judgeFailed?: boolean;
  /** How uncertain the reward model was about the pick against the best template (`CandidatePick.uncertainty`). */
  uncertainty?: number;
}

/** One Best-of-N strategy (issue 6). Strategies are stateless; all caching lives in the context. */
export interface SelectionStrategy {
  readonly name: StrategyName;
  select(context: SelectionContext): Promise<Selection>;
}
