import type { Plan } from '../core/plan.js';
import type { RewardModel } from '../core/reward-model.js';
import { defaultBlockCatalog, type BlockCatalog } from '../plan/index.js';
import type { FeaturePipeline } from './features/feature-pipeline.js';
import { analyzePlan, planPrefix, type PlanAnalysis } from './features/plan-analysis.js';
import type { RewardHead } from './heads/reward-head.js';
import type { TrainingSource } from './training-source.js';

/** Plan texts whose canonical analysis is kept between calls. */
export const PLAN_CACHE_SIZE = 8192;

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
}

/**
 * A Bradley-Terry reward model trained here: features from a `FeaturePipeline`, a head over
 * them. Reads the task and the canonical rendering of each plan (invalid plans in their
 * diagnostic form), so formatting never changes a score. Parsed canonical forms of plan texts
 * are cached (bounded, oldest evicted first).
 *
 * @example
 * const [a, b] = await model.score(task.question, [planTextA, planTextB]);
 */
export class TrainedRewardModel implements RewardModel {
  readonly name: string;
  readonly catalog: BlockCatalog;
  readonly provenance: RewardModelProvenance;
  private readonly plans = new Map<string, PlanAnalysis>();

  constructor(
    readonly pipeline: FeaturePipeline,
    readonly head: RewardHead,
    options: TrainedRewardModelOptions = {},
  ) {
    this.name = options.name ?? `orchrm-bt-${head.config.kind}`;
    this.catalog = options.catalog ?? defaultBlockCatalog();
    this.provenance = options.provenance ?? {};
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

  /** The canonical analysis of a plan; texts are cached. */
  analyze(plan: string | Plan): PlanAnalysis {
    if (typeof plan !== 'string') return analyzePlan(plan, this.catalog);
    const cached = this.plans.get(plan);
    if (cached !== undefined) return cached;
    const analysis = analyzePlan(plan, this.catalog);
    if (this.plans.size >= PLAN_CACHE_SIZE) this.plans.delete(this.plans.keys().next().value as string);
    this.plans.set(plan, analysis);
    return analysis;
  }

  /** Releases the embedding cache, if any. */
  close(): void {
    this.pipeline.close();
  }
}
