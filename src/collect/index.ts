export { collectEpisodes, type CollectOptions } from './collect-episodes.js';
export { CollectTally, type CollectSummary } from './collect-summary.js';
