export { collectEpisodes, type CollectOptions } from './collect-episodes.js';
export { summarizeEpisodes, type CollectSummary } from './collect-summary.js';
