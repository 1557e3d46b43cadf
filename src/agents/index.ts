export type { BlockChatRequest, BlockContext, BlockDefinition, BlockResult } from './block.js';
export { cotBlock } from './cot.js';
export { debateBlock } from './debate.js';
export { extractAnswer, type AnswerMethod, type ExtractedAnswer } from './extract-answer.js';
export { majorityVote, type MajorityVote } from './majority-vote.js';
export { normalizeAnswer } from './normalize-answer.js';
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
  type PromptStep,
  type PromptSubject,
} from './prompts.js';
export { reflexionBlock } from './reflexion.js';
export { BUILTIN_BLOCKS, createBlockRegistry, type BlockRegistry } from './registry.js';
export { scBlock } from './sc.js';
export { MAX_QUERY_CHARS, searchBlock } from './search.js';
