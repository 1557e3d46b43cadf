import { SystemError } from '../../core/index.js';
import type { EmbeddingSource } from './embedding-source.js';
import type { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import type { NamedFeatureSink } from './named-features.js';
import type { PlanAnalysis } from './plan-analysis.js';
import type { TaskAnalysis } from './task-analysis.js';

/**
 * The dense block of one side's embedding, written at coordinates offset..offset+dimensions-1
 * (after the hashed space). The texts must have been prepared on the source.
 */
export function createEmbeddingEncoder(side: 'task' | 'plan', source: EmbeddingSource, offset: number): FeatureEncoder {
  return {
    name: `embed:${source.model}/${source.dimensions}@${side}`,
    taskOnly: side === 'task',
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const text = side === 'task' ? task.text : plan.text;
      const vector = source.vector(text);
      if (vector === undefined) throw new SystemError(`embedding of a ${side} text was not prepared before encoding; call pipeline.prepare first`);
      for (let index = 0; index < vector.length; index++) out.add(offset + index, vector[index]!);
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const text = side === 'task' ? task.text : plan.text;
      const vector = source.vector(text);
      if (vector === undefined) throw new SystemError(`embedding of a ${side} text was not prepared before explaining; call pipeline.prepare first`);
      for (let index = 0; index < vector.length; index++) out.add(`${side} embedding[${index}]`, offset + index, vector[index]!);
    },
  };
}
