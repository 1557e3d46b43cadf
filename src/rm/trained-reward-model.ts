import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { CostAwareRewardModel, Plan, PlanEstimate, TemplateRoutingRewardModel, UncertainRewardModel } from '../core/index.js';
import { defaultBlockCatalog, type BlockCatalog } from '../plan/index.js';
import type { FeaturePipeline } from './features/feature-pipeline.js';
import { analyzePlan, planPrefix, type PlanAnalysis } from './features/plan-analysis.js';
import { calibratedProbability, type PlattCalibration } from './calibration.js';
import { tokensFromCostScore } from './cost-head.js';
import type { RewardHead } from './heads/reward-head.js';
import type { TemplateRouter } from './template-router.js';

/** Plan texts whose canonical analysis is kept between calls (least recently used evicted first). */
export const PLAN_CACHE_SIZE = 8192;

/** One world a model's pairs came from: a simulated scenario, a benchmark task file, or an import. */
export const TrainingWorldSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scenario'), scenario: z.string() }),
  z.object({ kind: z.literal('task-file'), suite: z.string(), file: z.string() }),
  z.object({ kind: z.literal('imported'), file: z.string() }),
]);
export type TrainingWorld = z.infer<typeof TrainingWorldSchema>;

/** What a model file records about its training data (`trained_on` metadata). */
export const TrainingSourceSchema = z.object({
  /** The pair dataset it was trained on. */
  datasetId: z.string(),
  /** Where that dataset's episodes (or imported pairs) came from; empty when the store did not say. */
  worlds: z.array(TrainingWorldSchema),
});
export type TrainingSource = z.infer<typeof TrainingSourceSchema>;

/** Where a trained model came from; written into its model file. */
export interface RewardModelProvenance {
  /** sha256 of the training pairs (`PairDataset.dataHash`). */
  trainingDataHash?: string;
  seed?: number;
  /** The training configuration (JSON-serialisable). */
  trainingConfig?: Record<string, unknown>;
  /** Metrics to keep with the model (training history, evaluation). */
  metrics?: Record<string, unknown>;
  /** The pair dataset and the worlds (scenarios, task files) it came from, so a user of the model can be warned. */
  trainedOn?: TrainingSource;
}

export interface TrainedRewardModelOptions {
  /** @default 'orchrm-bt-<head kind>' */
  name?: string;
  /** Blocks plans are parsed against. @default the built-in blocks */
  catalog?: BlockCatalog;
  provenance?: RewardModelProvenance;
  /** Heads trained on bootstrap resamples of the training tasks (`trainBootstrapHeads`), over the same features. @default none */
  ensemble?: readonly RewardHead[];
  /** A linear head over the same features predicting log(1 + execution tokens) (`trainCostHead`). @default none */
  costHead?: RewardHead;
  /** Platt scaling of the score into a success probability, fitted on the train split's graded episodes. @default none */
  calibration?: PlattCalibration;
  /** Per template plan, its success over the task's routing facts, fitted on graded template episodes (`trainTemplateRouter`). @default none */
  templateRouter?: TemplateRouter;
}

/**
 * A Bradley-Terry reward model trained here: features from a `FeaturePipeline`, a head over
 * them. Reads the task and the canonical rendering of each plan (invalid plans in their
 * diagnostic form), so formatting never changes a score. Parsed canonical forms of plan texts
 * are cached (bounded, least recently used evicted first).
 *
 * @example
 * const [a, b] = await model.score(task.question, [planTextA, planTextB]);
 */
export class TrainedRewardModel implements UncertainRewardModel, CostAwareRewardModel, TemplateRoutingRewardModel {
  readonly name: string;
  /** Bootstrap heads over the same features (empty when trained without them). */
  readonly ensemble: readonly RewardHead[];
  /** The cost head (execution tokens), when the model was trained with plan outcomes. */
  readonly costHead: RewardHead | undefined;
  /** Score to success probability, when the model was trained with graded plan outcomes. */
  readonly calibration: PlattCalibration | undefined;
  /** The template router, when the model was trained with graded template episodes. */
  readonly templateRouter: TemplateRouter | undefined;
  readonly catalog: BlockCatalog;
  readonly provenance: RewardModelProvenance;
  // lru-cache, not a Map trimmed by deleting its first key: V8 keeps a Map's deleted entries
  // until it rehashes, so finding the first live key walked thousands of them (4 µs a plan).
  private readonly plans = new LRUCache<string, PlanAnalysis>({ max: PLAN_CACHE_SIZE });

  constructor(
    readonly pipeline: FeaturePipeline,
    readonly head: RewardHead,
    options: TrainedRewardModelOptions = {},
  ) {
    this.name = options.name ?? `orchrm-bt-${head.config.kind}`;
    this.catalog = options.catalog ?? defaultBlockCatalog();
    this.provenance = options.provenance ?? {};
    this.ensemble = options.ensemble ?? [];
    this.costHead = options.costHead;
    this.calibration = options.calibration;
    this.templateRouter = options.templateRouter;
    for (const member of [...this.ensemble, ...(this.costHead ? [this.costHead] : [])]) {
      if (member.inputDimension !== head.inputDimension) throw new RangeError(`an ensemble or cost head reads ${member.inputDimension} features, the model's head ${head.inputDimension}`);
    }
  }

  /** Whether `estimate` can answer: the model has a cost head and a calibration. */
  get canEstimate(): boolean {
    return this.costHead !== undefined && this.calibration !== undefined;
  }

  /**
   * Per plan, the calibrated probability that it succeeds and the execution tokens it is predicted
   * to spend (0 for an invalid plan: nothing runs). Throws a RangeError when `canEstimate` is false.
   */
  async estimate(task: string, plans: readonly (string | Plan)[], options: { signal?: AbortSignal } = {}): Promise<PlanEstimate[]> {
    const { costHead, calibration } = this;
    if (costHead === undefined || calibration === undefined) throw new RangeError(`reward model ${this.name} has no cost head or calibration; retrain it with plan outcomes (orchrm rm train on a mined pair dataset)`);
    const analyses = plans.map((plan) => this.analyze(plan));
    const [scores, costs] = (await this.scoreAnalysesWith([this.head, costHead], task, analyses, options.signal)).reduce<[number[], number[]]>(
      (columns, row) => {
        columns[0].push(row[0]!);
        columns[1].push(row[1]!);
        return columns;
      },
      [[], []],
    );
    return analyses.map((analysis, index) => ({
      successProbability: calibratedProbability(calibration, scores[index]!),
      executionTokens: analysis.plan === undefined ? 0 : tokensFromCostScore(costs[index]!),
    }));
  }

  get routedTemplates(): readonly string[] {
    return this.templateRouter?.names ?? [];
  }

  get routedSuites(): readonly string[] {
    return this.templateRouter?.suites ?? [];
  }

  /** Per template name, the router's success probability on the task (undefined for a name it has not learnt, or every name without a router). */
  routeTemplates(task: string, suite: string, names: readonly string[]): (number | undefined)[] {
    return this.templateRouter === undefined ? names.map(() => undefined) : this.templateRouter.probabilities(task, suite, names);
  }

  /** Per suite, the template that did best in the router's training record (`TemplateRouter.bestTemplatesBySuite`). */
  bestTemplatesBySuite(names: readonly string[]): Record<string, string> | undefined {
    return this.templateRouter?.bestTemplatesBySuite(names);
  }

  /** Per template name, the execution tokens the router expects it to spend on the task (`TemplateRouter.executionTokens`). */
  templateExecutionTokens(task: string, suite: string, names: readonly string[]): (number | undefined)[] {
    return this.templateRouter === undefined ? names.map(() => undefined) : this.templateRouter.executionTokens(task, suite, names);
  }

  /** What reading the samples is expected to add to the router's priced pick (`TemplateRouter.readingGain`). */
  readingGain(suite: string, pricePerToken: number, margin: number): number | undefined {
    return this.templateRouter?.readingGain(suite, pricePerToken, margin);
  }

  /** Whether a sampled plan may replace the router's pick on the suite (`TemplateRouter.samplesMayReplace`). */
  samplesMayReplace(suite: string, margin: number): boolean | undefined {
    return this.templateRouter?.samplesMayReplace(suite, margin);
  }

  get ensembleSize(): number {
    return this.ensemble.length;
  }

  /** Per plan, the score of each bootstrap head (empty arrays without an ensemble). */
  async scoreMembers(task: string, plans: readonly (string | Plan)[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    const analyses = plans.map((plan) => this.analyze(plan));
    return this.scoreAnalysesWith(this.ensemble, task, analyses, options.signal);
  }

  async score(task: string, plans: readonly (string | Plan)[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
    const analyses = plans.map((plan) => this.analyze(plan));
    return this.scoreAnalyses(task, analyses, options.signal);
  }

  /**
   * Score of the first `k` nodes of a plan in topological order, rendered canonically (dense,
   * early rewards while a plan is being written). `k` at or beyond the node count scores the
   * whole plan; an invalid plan scores as itself for every `k`.
   */
  async scorePrefix(task: string, plan: string | Plan, k: number, options: { signal?: AbortSignal } = {}): Promise<number> {
    const [score] = await this.scoreAnalyses(task, [planPrefix(this.analyze(plan), k, this.catalog)], options.signal);
    return score!;
  }

  /** Scores of already-analysed plans (see `analyze`). */
  async scoreAnalyses(task: string, analyses: readonly PlanAnalysis[], signal?: AbortSignal): Promise<number[]> {
    const pipeline = this.pipeline;
    if (pipeline.needsPreparation) await pipeline.prepare([task], analyses, signal);
    try {
      const taskAnalysis = pipeline.analyzeTask(task);
      const scores = new Array<number>(analyses.length);
      for (let index = 0; index < analyses.length; index++) {
        const count = pipeline.encode(taskAnalysis, analyses[index]!);
        scores[index] = this.head.score(pipeline.indices, pipeline.values, 0, count);
      }
      return scores;
    } finally {
      if (pipeline.needsPreparation) pipeline.release();
    }
  }

  /** Per plan, the score of each of `heads`: every plan is encoded once. */
  private async scoreAnalysesWith(heads: readonly RewardHead[], task: string, analyses: readonly PlanAnalysis[], signal?: AbortSignal): Promise<number[][]> {
    const pipeline = this.pipeline;
    if (pipeline.needsPreparation) await pipeline.prepare([task], analyses, signal);
    try {
      const taskAnalysis = pipeline.analyzeTask(task);
      const scores = new Array<number[]>(analyses.length);
      for (let index = 0; index < analyses.length; index++) {
        const count = pipeline.encode(taskAnalysis, analyses[index]!);
        scores[index] = heads.map((head) => head.score(pipeline.indices, pipeline.values, 0, count));
      }
      return scores;
    } finally {
      if (pipeline.needsPreparation) pipeline.release();
    }
  }

  /** The canonical analysis of a plan; texts are cached. */
  analyze(plan: string | Plan): PlanAnalysis {
    if (typeof plan !== 'string') return analyzePlan(plan, this.catalog);
    const cached = this.plans.get(plan);
    if (cached !== undefined) return cached;
    const analysis = analyzePlan(plan, this.catalog);
    this.plans.set(plan, analysis);
    return analysis;
  }

  /** Releases the embedding cache, if any. */
  close(): void {
    this.pipeline.close();
  }
}

/** `scenario default`, `gsm8k tasks from gsm8k-test.jsonl`, `pairs imported from pairs.jsonl`. */
export function describeWorld(world: TrainingWorld): string {
  if (world.kind === 'scenario') return `scenario ${world.scenario}`;
  if (world.kind === 'task-file') return `${world.suite} tasks from ${world.file}`;
  return `pairs imported from ${world.file}`;
}

/**
 * Why a model may not fit a run, or undefined when it does: it was trained on another scenario
 * or another task suite (task files of one suite, e.g. its train and test files, match), or it
 * does not record what it was trained on. Imported pairs match any world.
 */
export function trainingMismatch(modelPath: string, source: TrainingSource | undefined, world: TrainingWorld | undefined): string | undefined {
  if (world === undefined) return undefined;
  if (source === undefined) return `${modelPath} does not record what it was trained on (written by an older orchrm), so it cannot be checked against ${describeWorld(world)}; retrain it to record that`;
  if (source.worlds.length === 0 || source.worlds.some((trained) => trained.kind === 'imported')) return undefined;
  const fits = source.worlds.some((trained) =>
    trained.kind === 'scenario' ? world.kind === 'scenario' && trained.scenario === world.scenario : trained.kind === 'task-file' && world.kind === 'task-file' && trained.suite === world.suite,
  );
  if (fits) return undefined;
  return `${modelPath} was trained on ${source.worlds.map(describeWorld).join(', ')} (pair dataset ${source.datasetId}), but this run uses ${describeWorld(world)}; its scores may not carry over to these tasks`;
}
