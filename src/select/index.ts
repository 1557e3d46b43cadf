/**
 * Best-of-N plan selection (issue 6): sample N plans, choose with a reward model, a judge or a
 * vote, and account for every token spent writing, executing and verifying.
 */
export { BonConfigSchema, DEFAULT_FRONTIER_MARGINS, DEFAULT_FRONTIER_PRICES, DEFAULT_NS, frontierObjectives, objectiveOf, parseBonConfig, type BonConfig, type BonConfigInput } from './bon-config.js';
export { chooseByObjective, OBJECTIVE_NAMES, objectiveLabel, SelectionObjectiveSchema, type SelectionObjective } from './selection-objective.js';
export { summarizeFrontier, type BonFrontier, type FrontierPoint, type FrontierRow, type FrontierStrategy, type TaskBlindMix } from './summarize-frontier.js';
export { CandidatePool, type CandidatePoolOptions, type SampledPlans } from './candidate-pool.js';
export { describeTaskBlindMix, formatBonTable, formatFrontierLines, readingGainLine, sampleSwitchingLine, type FrontierForText } from './format-bon-table.js';
export {
  buildPlanJudgeMessages,
  buildTrajectoryJudgeMessages,
  MAX_OUTPUT_CHARS,
  parseJudgeChoice,
  PLAN_JUDGE_HEADER,
  TRAJECTORY_JUDGE_HEADER,
} from '../prompts/index.js';
export { recordBestOfN, type RecordedBestOfN } from './record-best-of-n.js';
export { runBestOfN, type BestOfNOptions, type BestOfNRun, type BonTaskResult, type FailedBonTask, type FrontierOutcome, type TaskOutcome } from './run-best-of-n.js';
export { BON_TASK_RESULT_KIND, runStoredBestOfN, type StoredBestOfN, type StoredBestOfNOptions } from './run-stored-best-of-n.js';
export { sampleKind, type CandidatePick } from './candidate-pick.js';
export { RANKING_STRATEGIES, STRATEGY_NAMES, TEMPLATE_STRATEGIES, type FixedStrategyName, type OutcomeName, type Selection, type SelectionContext, type SelectionStrategy, type StrategyName } from './selection-strategy.js';
export { fixedPlanTemplates, GENERIC_TEMPLATES, genericPlanTemplates, loadPlanTemplates, PlanTemplateFileSchema, type PlanTemplateFile } from './plan-templates.js';
export { STRATEGIES } from './strategies/index.js';
export { summarizeSwitching, SWITCHING_STRATEGIES, type SwitchingSummary } from './summarize-switching.js';
export { comparisons, outcomeOrder, summarizeBestOfN, type BonTable, type PairedDifference, type StrategySummary, type SummarizeOptions } from './summarize-best-of-n.js';
