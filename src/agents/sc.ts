import type { ScParams } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { builtinSpec } from './builtin-spec.js';
import { majorityVote } from './majority-vote.js';
import { answerPrompt, extractAnswer } from '../prompts/index.js';

/**
 * Self-consistency: `params.samples` independent answers to the same prompt (told apart by
 * `sampleIndex` 0..n-1 so caches keep them distinct), then a majority vote on normalised
 * answers; ties go to the answer seen first. The node's answer is the winning group's first
 * sample as written (not normalised), and its output is that sample's text.
 */
export const scBlock: BlockDefinition<ScParams> = {
  ...builtinSpec('sc'),
  async run(context) {
    const { samples, temperature, maxTokens } = context.params;
    const messages = answerPrompt(context);
    // Started together so the executor can run them concurrently; it assigns call order at start.
    const responses = await Promise.all(
      Array.from({ length: samples }, (_, sampleIndex) => context.chat({ messages, temperature, maxTokens, sampleIndex })),
    );
    const outputs = responses.map((response) => response.text);
    const answers = outputs.map((output) => extractAnswer(output).answer);
    const vote = majorityVote(answers);
    const chosen = vote.winnerIndex >= 0 ? vote.winnerIndex : 0;
    return {
      output: outputs[chosen] ?? '',
      answer: vote.winnerIndex >= 0 ? (answers[chosen] ?? '') : '',
      artifacts: { kind: 'sc', samples: answers, votes: vote.votes, winner: vote.winner, voteShare: vote.voteShare },
    };
  },
};
