export { CHAT_TEMPLATES, lastUserTurn, stripLeadingSpecialTokens, stripTrailingSpecialTokens, type ChatTemplateMarkers, type UserTurn } from './chat-templates.js';
export { createRefusalLogger, type RefusalLoggerOptions } from './create-refusal-logger.js';
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
export { createRewardApp, DEFAULT_MAX_PLANS, type AppRequest, type ErrorBody, type AppRequestHead, type AppResponse, type Refusal, type RequestRefusedEvent, type RewardApp, type RewardAppOptions } from './reward-app.js';
export { createServerMetrics, LATENCY_BUCKETS_S, METRIC_ROUTES, PROMETHEUS_CONTENT_TYPE, type MetricRoute, type ServerMetrics } from './server-metrics.js';
export { planOfQuery } from './plan-of-query.js';
export { DEFAULT_MAX_BODY_BYTES, startRewardServer, type RewardServer, type RewardServerOptions } from './start-reward-server.js';
