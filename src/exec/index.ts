export { executePlan, type ExecutePlanOptions, type PlanExecution } from './execute-plan.js';
export type { ExecutableBlocks } from './executable-blocks.js';
export { EpisodeLimits } from './episode-limits.js';
export { runEpisode, type RunEpisodeOptions } from './run-episode.js';
export { substituteInput } from './substitute-input.js';
export type { EpisodeMeter } from './node-chat.js';
export { errorMessage } from './node-chat.js';
