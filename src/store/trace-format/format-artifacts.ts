import { type BlockArtifacts, DebateArtifactsSchema, ReflexionArtifactsSchema, ScArtifactsSchema, SearchArtifactsSchema } from '../../core/index.js';
import { excerpt } from './text-excerpt.js';

/**
 * A readable summary of a node's artifacts, one entry per line: SC votes, reflexion verdicts per
 * round, debate answers per round, search queries with the documents they returned. Artifacts of
 * user blocks are shown as JSON.
 */
export function formatArtifacts(artifacts: BlockArtifacts, maxChars: number): string[] {
  // The union includes a catch-all custom shape, so each built-in kind is re-checked by schema.
  const sc = ScArtifactsSchema.safeParse(artifacts);
  if (sc.success) {
    const { votes, winner, voteShare, samples } = sc.data;
    return [
      `votes: ${votes.map((vote) => `${quote(vote.answer)} x${vote.count}`).join(', ')}`,
      `winner: ${quote(winner)} (${Math.round(voteShare * 100)}% of ${samples.length} samples)`,
    ];
  }
  const reflexion = ReflexionArtifactsSchema.safeParse(artifacts);
  if (reflexion.success) {
    const { initialAnswer, rounds, acceptedAtRound } = reflexion.data;
    return [
      `initial answer: ${quote(initialAnswer)}`,
      ...rounds.map(
        (round, index) =>
          `round ${index}: ${round.verdict}${round.revisedAnswer === undefined ? '' : ` -> ${quote(round.revisedAnswer)}`}; critique: ${excerpt(round.critique, maxChars)}`,
      ),
      acceptedAtRound === undefined ? 'critic never accepted' : `accepted at round ${acceptedAtRound}`,
    ];
  }
  const debate = DebateArtifactsSchema.safeParse(artifacts);
  if (debate.success) {
    const { roles, rounds, finalAnswer, converged } = debate.data;
    return [
      `roles: ${roles.join(', ')}`,
      ...rounds.map((round, index) => `round ${index + 1}: ${round.turns.map((turn) => `${turn.role}=${quote(turn.answer)}`).join(', ')}`),
      `final: ${quote(finalAnswer)} (${converged ? 'converged' : 'not converged'})`,
    ];
  }
  const search = SearchArtifactsSchema.safeParse(artifacts);
  if (search.success) {
    const { steps, documentsFound } = search.data;
    return [
      ...steps.map((step, index) => {
        const found = step.docIds.length === 0 ? 'no documents' : step.docIds.join(', ');
        return `query ${index + 1}: ${quote(excerpt(step.query, maxChars))} -> ${found}${step.error === undefined ? '' : ` (error: ${step.error})`}`;
      }),
      `${documentsFound} distinct document(s) found`,
    ];
  }
  const { kind: _kind, ...rest } = artifacts;
  return Object.keys(rest).length === 0 ? [] : [excerpt(JSON.stringify(rest), maxChars * 2)];
}

function quote(text: string): string {
  return JSON.stringify(text);
}
