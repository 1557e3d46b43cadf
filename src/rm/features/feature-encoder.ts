import type { FeatureAccumulator } from './feature-accumulator.js';
import type { NamedFeatureSink } from './named-features.js';
import type { PlanAnalysis } from './plan-analysis.js';
import type { TaskAnalysis } from './task-analysis.js';

/**
 * One feature family. Hashed encoders add signed hashed coordinates below 2^hashBits; dense
 * encoders (embeddings) write a fixed block at their offset after it. `taskOnly` encoders read
 * only the task, so the pipeline runs them once per task and reuses the result for every plan.
 */
export interface FeatureEncoder {
  /** The item of the spec grammar this encoder implements, e.g. `words:1-2@plan`. */
  readonly name: string;
  readonly taskOnly: boolean;
  encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator): void;
  /**
   * The same features as `encode`, each with a readable name (slower: names are built as
   * strings). Used to explain a score, never while training or scoring.
   */
  explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink): void;
}
