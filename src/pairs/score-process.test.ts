import { describe, expect, it } from 'vitest';
import type { Episode, NodeTrace } from '../core/episode.js';
import type { SearchArtifacts } from '../core/artifacts.js';
import { createRichEpisode } from '../testing/episode-factory.js';
import { ProcessRubricSchema } from './process-rubric.js';
import { scoreProcess } from './score-process.js';
import { brokenEpisode, fixtureTask, planEpisode } from './test-fixtures/plan-episode.js';

const rubric = ProcessRubricSchema.parse({});

function withNode(episode: Episode, changes: Partial<NodeTrace>): Episode {
  return { ...episode, nodes: episode.nodes.map((node) => ({ ...node, ...changes })) };
}

describe('scoreProcess', () => {
  it('documents its defaults', () => {
    expect(rubric).toEqual({
      weights: { planValid: 3, nodeSuccess: 2, withinBudget: 1, blockAgreement: 1.5, crossNodeAgreement: 1, searchFeedback: 1, finalConsistency: 1 },
      threshold: 0.15,
      marginScale: 0,
    });
  });

  it('is the weighted mean of the terms that apply', () => {
    const episode = planEpisode({ id: 'e', task: fixtureTask('t'), variant: 'a', voteShare: 0.6 });
    expect(scoreProcess(episode, rubric)).toEqual({
      score: (3 + 2 + 1 + 1.5 * 0.6) / 7.5,
      terms: { planValid: 1, nodeSuccess: 1, withinBudget: 1, blockAgreement: 0.6 },
    });
    expect(scoreProcess(brokenEpisode('b', fixtureTask('t')), rubric)).toEqual({ score: 0, terms: { planValid: 0 } });
    const noAgreement = ProcessRubricSchema.parse({ weights: { blockAgreement: 0 } });
    expect(scoreProcess(episode, noAgreement).score).toBe(1);
  });

  it('reads every artifact of a rich trace', () => {
    const episode = createRichEpisode({ seed: 3 });
    const search = episode.nodes[0]?.artifacts as SearchArtifacts;
    const { terms } = scoreProcess(episode, rubric);
    expect(terms.nodeSuccess).toBe(5 / 7); // F failed, G skipped
    expect(terms.withinBudget).toBe(1);
    // A, C and D share the question as input: 'found 3 facts' against two equal answers.
    expect(terms.crossNodeAgreement).toBe(2 / 3);
    expect(terms.searchFeedback).toBe((search.steps.length - 1) / search.steps.length);
    // B, C and D feed the answer node E and all agree with the final answer.
    expect(terms.finalConsistency).toBe(1);
    expect(terms.blockAgreement).toBeGreaterThan(0);
  });

  it('scores debate convergence, reflexion verdicts and budget overruns', () => {
    const base = planEpisode({ id: 'e', task: fixtureTask('t'), variant: 'a' });
    const debate = withNode(base, {
      artifacts: {
        kind: 'debate',
        roles: ['x', 'y', 'z', 'w'],
        rounds: [{ turns: [{ role: 'x', answer: '42' }, { role: 'y', answer: '42.0' }, { role: 'z', answer: '41' }, { role: 'w', answer: '7' }] }],
        finalAnswer: '42',
        converged: false,
      },
    });
    expect(scoreProcess(debate, rubric).terms.blockAgreement).toBe(0.5);
    const unclear = withNode(base, {
      artifacts: { kind: 'reflexion', initialAnswer: '41', rounds: [{ critique: 'hmm', verdict: 'unclear', revisedAnswer: '42' }] },
    });
    expect(scoreProcess(unclear, rubric).terms.blockAgreement).toBe(0.5);
    const rejected = withNode(base, {
      artifacts: { kind: 'reflexion', initialAnswer: '41', rounds: [{ critique: 'no', verdict: 'incorrect', revisedAnswer: '42' }] },
    });
    expect(scoreProcess(rejected, rubric).terms.blockAgreement).toBe(0);
    const overBudget = { ...withNode(base, { status: 'budget_exceeded' }), status: 'budget_exceeded' as const };
    expect(scoreProcess(overBudget, rubric).terms).toMatchObject({ nodeSuccess: 0, withinBudget: 0 });
  });
});
