import type { CotParams } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { builtinSpec } from './builtin-spec.js';
import { answerPrompt, extractAnswer } from '../prompts/index.js';

/** Chain-of-thought: one worker call at `params.temperature`. */
export const cotBlock: BlockDefinition<CotParams> = {
  ...builtinSpec('cot'),
  async run(context) {
    const response = await context.chat({
      messages: answerPrompt(context),
      temperature: context.params.temperature,
      maxTokens: context.params.maxTokens,
    });
    return { output: response.text, answer: extractAnswer(response.text).answer, artifacts: { kind: 'cot' } };
  },
};
