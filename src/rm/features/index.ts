export { EmbeddingCache } from './embedding-cache.js';
export { EMBEDDING_BATCH_SIZE, EmbeddingSource, type EmbeddingSourceOptions } from './embedding-source.js';
export {
  DEFAULT_ENCODER_SPEC_TEXT,
  DEFAULT_HASH_BITS,
  EMBEDDINGS_ENDPOINT_FIX,
  ENCODER_SPEC_GRAMMAR,
  EncoderSpecSchema,
  endpointFieldsOf,
  featureDimension,
  MAX_FEATURE_ENCODERS,
  FeatureSideSchema,
  FeatureSpecSchema,
  formatEncoderSpec,
  parseEncoderSpec,
  planOnlySpec,
  type EncoderSpec,
  type EncoderSpecInput,
  type FeatureSide,
  type FeatureSpec,
} from './encoder-spec.js';
export { FeatureAccumulator, MAX_FEATURES_PER_EXAMPLE } from './feature-accumulator.js';
export type { FeatureEncoder } from './feature-encoder.js';
export { FeaturePipeline, TASK_CACHE_SIZE, type FeaturePipelineOptions } from './feature-pipeline.js';
export { murmur3String } from './murmur3.js';
export { NamedFeatureCollector, type NamedFeature, type NamedFeatureSink } from './named-features.js';
export { analyzeCanonicalPlan, analyzeInvalidPlan, analyzePlan, planPrefix, type PlanAnalysis } from './plan-analysis.js';
export { structureFeatures } from './structure-encoder.js';
export { analyzeTask, type TaskAnalysis } from './task-analysis.js';
