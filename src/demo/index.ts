export { FULL_SIZES, QUICK_SIZES, type DemoSizes } from './demo-config.js';
export { formatDemoSummary } from './format-demo-summary.js';
export { runDemo, type DemoOptions, type DemoOutcome } from './run-demo.js';
export { createRewardRankedOrchestrator } from './reward-ranked-orchestrator.js';
export { runLoop, type LoopOptions, type LoopRound } from './run-loop.js';
