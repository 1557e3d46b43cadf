export { CHAT_TEMPLATES, lastUserTurn, stripLeadingSpecialTokens, stripTrailingSpecialTokens, type ChatTemplateMarkers, type UserTurn } from './chat-templates.js';
export { createRefusalLogger, type RefusalLoggerOptions } from './create-refusal-logger.js';
export { createUnscoredLogger, type UnscoredLoggerOptions } from './create-unscored-logger.js';
export {
  createTaskExtractor,
  orchrmPromptTask,
  TASK_RULES,
  TASK_SOURCES,
  type ExtractedTask,
  type TaskExtractor,
  type TaskExtractorOptions,
  type TaskRule,
  type TaskSource,
} from './extract-task.js';
export { GetRewardRequestSchema, ScoreRequestSchema, type GetRewardRequest, type ScoreRequest } from './request-bodies.js';
export { createRewardApp, DEFAULT_MAX_PLANS, type AppRequest, type ErrorBody, type AppRequestHead, type AppResponse, type Refusal, type QueriesUnscoredEvent, type RequestRefusedEvent, type RewardApp, type RewardAppEvent, type RewardAppOptions, type UnscoredQuery } from './reward-app.js';
export { createServerMetrics, LATENCY_BUCKETS_S, METRIC_ROUTES, PROMETHEUS_CONTENT_TYPE, UNSCORED_CODES, type MetricRoute, type ServerMetrics, type UnscoredCode } from './server-metrics.js';
export { planOfQuery, type QueryCut } from './plan-of-query.js';
export { DEFAULT_MAX_BODY_BYTES, startRewardServer, type RewardServer, type RewardServerOptions } from './start-reward-server.js';
