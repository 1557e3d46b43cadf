/**
 * The prompt template set (see prompt-templates.ts). It depends on nothing else in orchrm, so it
 * sits just above core/: the blocks (agents/), the judges (select/) and the orchestrator prompt
 * (plan/) render through it, and the simulator (sim/) reads its headers and markers to
 * recognise those prompts. Imports therefore flow one way, prompts <- core stages <- sim, and
 * no core folder needs to know how the simulator reads prompts.
 */
export { BLOCK_PROMPTS, JUDGE_PROMPTS, ORCHESTRATOR_PROMPTS, PROMPT_SET_VERSION, PROMPT_STEPS, type PromptStep } from './prompt-templates.js';
