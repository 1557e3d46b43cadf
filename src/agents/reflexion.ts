import type { ReflexionArtifacts } from '../core/index.js';
import type { ReflexionParams } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { builtinSpec } from './builtin-spec.js';
import { answerPrompt, critiquePrompt, extractAnswer, readVerdict, refinePrompt } from '../prompts/index.js';

/**
 * Reflexion: a first answer, then up to `params.maxRounds` rounds of critic call and refine
 * call. A round whose critic says `<verdict>correct</verdict>` ends the block without refining;
 * `incorrect` and a missing or unreadable verdict (`unclear`) both lead to a refine call.
 */
export const reflexionBlock: BlockDefinition<ReflexionParams> = {
  ...builtinSpec('reflexion'),
  async run(context) {
    const { maxRounds, temperature, maxTokens } = context.params;
    const first = await context.chat({ messages: answerPrompt(context), temperature, maxTokens });
    let output = first.text;
    let answer = extractAnswer(output).answer;
    const artifacts: ReflexionArtifacts = { kind: 'reflexion', initialAnswer: answer, rounds: [] };
    for (let round = 0; round < maxRounds; round++) {
      const critique = await context.chat({ messages: critiquePrompt(context, output), temperature, maxTokens });
      const verdict = readVerdict(critique.text);
      if (verdict === 'correct') {
        artifacts.rounds.push({ critique: critique.text, verdict });
        artifacts.acceptedAtRound = round;
        break;
      }
      const refined = await context.chat({ messages: refinePrompt(context, output, critique.text), temperature, maxTokens });
      output = refined.text;
      answer = extractAnswer(output).answer;
      artifacts.rounds.push({ critique: critique.text, verdict, revisedAnswer: answer });
    }
    return { output, answer, artifacts };
  },
};
