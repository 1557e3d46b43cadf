export { FULL_SIZES, mergeSizes, QUICK_SIZES, type DemoSizes, type DemoSizesInput } from './demo-config.js';
export { formatDemoSummary } from './format-demo-summary.js';
export { runDemo, type DemoOptions, type DemoOutcome } from './run-demo.js';
export { createRewardRankedOrchestrator } from './reward-ranked-orchestrator.js';
export { runLoop, type LoopOptions, type LoopRound } from './run-loop.js';
