export type { BlockChatRequest, BlockContext, BlockDefinition, BlockResult } from './block.js';
export { cotBlock } from './cot.js';
export { debateBlock } from './debate.js';
export { majorityVote, type MajorityVote } from './majority-vote.js';
export { normalizeAnswer } from './normalize-answer.js';
// The block prompts and the reading of replies live with their readers in prompts/ (one codec
// per prompt); the blocks' users get them from here as before.
export {
  answerPrompt,
  critiquePrompt,
  debateFinalPrompt,
  debateTurnPrompt,
  extractAnswer,
  MAX_QUERY_CHARS,
  MAX_REASONING_CHARS,
  MAX_RESULT_CHARS,
  refinePrompt,
  searchFeedbackMessage,
  searchStartPrompt,
  type AnswerMethod,
  type DebateTurnView,
  type ExtractedAnswer,
  type PromptStep,
  type PromptSubject,
} from '../prompts/index.js';
export { reflexionBlock } from './reflexion.js';
export { BUILTIN_BLOCKS, createBlockRegistry, type BlockRegistry } from './registry.js';
export { scBlock } from './sc.js';
export { searchBlock } from './search.js';
