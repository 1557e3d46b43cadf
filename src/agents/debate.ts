import type { DebateArtifacts } from '../core/index.js';
import type { DebateParams } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { builtinSpec } from './builtin-spec.js';
import { normalizeAnswer } from './normalize-answer.js';
import { debateFinalPrompt, debateTurnPrompt, extractAnswer, type DebateTurnView } from '../prompts/index.js';

/**
 * Debate: every role answers in each of `params.rounds` rounds; from the second round on, each
 * role sees the other roles' previous-round answers and reasoning (and its own last answer).
 * One final-decision call then reads the debate and gives the node's answer. `converged` says
 * whether all roles gave the same non-empty normalised answer in the last round.
 */
export const debateBlock: BlockDefinition<DebateParams> = {
  ...builtinSpec('debate'),
  async run(context) {
    const { roles, rounds, temperature, maxTokens } = context.params;
    const transcript: DebateTurnView[][] = [];
    let previous: DebateTurnView[] | undefined;
    for (let round = 0; round < rounds; round++) {
      const before = previous;
      // One round's turns are independent, so they start together; others are told apart by
      // position, not name, because a plan may repeat a role.
      const turns = await Promise.all(
        roles.map(async (role, roleIndex): Promise<DebateTurnView> => {
          const messages = debateTurnPrompt(context, {
            role,
            round,
            rounds,
            own: before?.[roleIndex],
            others: before?.filter((_, index) => index !== roleIndex) ?? [],
          });
          // sampleIndex keeps two turns with the same role name and prompt apart in caches.
          const response = await context.chat({ messages, temperature, maxTokens, sampleIndex: roleIndex });
          return { role, output: response.text, answer: extractAnswer(response.text).answer };
        }),
      );
      transcript.push(turns);
      previous = turns;
    }
    const final = await context.chat({ messages: debateFinalPrompt(context, { rounds: transcript }), temperature, maxTokens });
    const finalAnswer = extractAnswer(final.text).answer;
    const lastAnswers = (previous ?? []).map((turn) => normalizeAnswer(turn.answer));
    const artifacts: DebateArtifacts = {
      kind: 'debate',
      roles: [...roles],
      rounds: transcript.map((turns) => ({ turns: turns.map(({ role, answer }) => ({ role, answer })) })),
      finalAnswer,
      converged: lastAnswers.length > 0 && lastAnswers[0] !== '' && lastAnswers.every((answer) => answer === lastAnswers[0]),
    };
    return { output: final.text, answer: finalAnswer, artifacts };
  },
};
