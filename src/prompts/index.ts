/**
 * The prompt protocol, one codec per prompt: every word orchrm sends to a model
 * (prompt-templates.ts), and for each prompt its writer and its reader side by side, each pair
 * with a round-trip test.
 *
 * - Block prompts: `answerPrompt` ... `searchFeedbackMessage` (block-prompts.ts), used by the
 *   blocks (agents/), and `readBlockPrompt` (read-block-prompt.ts), used by the simulated worker.
 * - Block replies: the `<answer>`, `<verdict>` and `<search>` tags (block-replies.ts,
 *   extract-answer.ts): written by the simulated worker, read by the blocks.
 * - Judge prompts: `buildTrajectoryJudgeMessages`, `buildPlanJudgeMessages` and the reply's
 *   `<choice>` (judge-prompts.ts), used by Best-of-N (select/), and `readJudgePrompt`
 *   (read-judge-prompt.ts), used by the simulated judge.
 * - The orchestrator prompt: `writeOrchestratorMessages` (orchestrator-prompt.ts), filled in by
 *   plan/ from its block catalogue, and `readOrchestratorPrompt` (read-orchestrator-prompt.ts),
 *   used by the simulated orchestrator.
 *
 * It depends on core/ alone, so it sits just above it: imports flow one way, prompts <- core
 * stages <- sim, and a change of a prompt's layout is made, and tested, in one place.
 */
export { BLOCK_PROMPTS, JUDGE_PROMPTS, ORCHESTRATOR_PROMPTS, PROMPT_SET_VERSION, PROMPT_STEPS, type PromptStep } from './prompt-templates.js';
export {
  answerPrompt,
  critiquePrompt,
  debateFinalPrompt,
  debateTurnPrompt,
  MAX_REASONING_CHARS,
  MAX_RESULT_CHARS,
  refinePrompt,
  searchFeedbackMessage,
  searchStartPrompt,
  type DebateTurnView,
  type PromptSubject,
} from './block-prompts.js';
export { readBlockPrompt, type BlockPromptView, type DebateAnswerLine, type ParsedBlockPrompt } from './read-block-prompt.js';
export type { ShownDocument } from './read-search-results.js';
export {
  answerTag,
  flagsMisleadingStatement,
  MAX_QUERY_CHARS,
  MISLEADING_STATEMENT_FLAG,
  readSearchAction,
  readVerdict,
  searchTag,
  verdictTag,
  type SearchAction,
  type Verdict,
} from './block-replies.js';
export { extractAnswer, type AnswerMethod, type ExtractedAnswer } from './extract-answer.js';
export {
  buildPlanJudgeMessages,
  buildTrajectoryJudgeMessages,
  choiceTag,
  indent,
  MAX_OUTPUT_CHARS,
  parseJudgeChoice,
  PLAN_JUDGE_HEADER,
  TRAJECTORY_JUDGE_HEADER,
} from './judge-prompts.js';
export { isJudgePrompt, readJudgePrompt, type JudgeCandidate, type ParsedJudgePrompt } from './read-judge-prompt.js';
export { writeOrchestratorMessages, type OrchestratorPromptParts } from './orchestrator-prompt.js';
export { readOrchestratorPrompt, type OrchestratorPromptView } from './read-orchestrator-prompt.js';
