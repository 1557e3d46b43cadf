import { type ChatMessage, ModelBehaviorError, type Usage } from '../../core/index.js';
import { parseJudgeChoice } from '../../prompts/index.js';
import type { SelectionContext } from '../selection-strategy.js';

export interface JudgeVerdict {
  /** 0-based candidate; 0 when the reply could not be read. */
  choice: number;
  usage: Usage;
  failed: boolean;
}

/**
 * Asks the judge (slot `judge`, temperature 0, the context's seed) and reads its choice. A reply
 * without a readable choice is the model's fault: the strategy falls back to candidate 0 (what
 * `single` would run) and says so, rather than aborting the whole experiment.
 */
export async function askJudge(context: SelectionContext, messages: ChatMessage[]): Promise<JudgeVerdict> {
  const response = await context.judge.chat({ messages, slot: 'judge', temperature: 0, seed: context.seed });
  try {
    return { choice: parseJudgeChoice(response.text, context.n), usage: response.usage, failed: false };
  } catch (error) {
    if (!(error instanceof ModelBehaviorError)) throw error;
    return { choice: 0, usage: response.usage, failed: true };
  }
}
