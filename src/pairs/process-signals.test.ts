import { describe, expect, it } from 'vitest';
import type { Episode } from '../core/episode.js';
import { consensusOf, readArtifactSignals } from './process-signals.js';
import { brokenEpisode, fixtureTask, planEpisode } from './test-fixtures/plan-episode.js';

const task = fixtureTask('t', false);

describe('readArtifactSignals', () => {
  it('reads validity, the normalised answer, block agreement, grounding and node health, never a grade', () => {
    const graded = planEpisode({ id: 'a', task: fixtureTask('g'), variant: 'a', answer: ' $1,234.50$. ', voteShare: 0.6, correct: false });
    expect(readArtifactSignals(graded)).toEqual({ valid: true, answer: '1234.5', agreement: 0.6, health: 1 });
    expect(readArtifactSignals(planEpisode({ id: 'b', task, variant: 'b', answer: 'Paris', grounded: true }))).toEqual({ valid: true, answer: 'paris', grounding: 1, health: 1 });
    expect(readArtifactSignals(planEpisode({ id: 'c', task, variant: 'c', answer: 'Lyon', grounded: false }))).toMatchObject({ grounding: 0 });
    expect(readArtifactSignals(brokenEpisode('d', task))).toEqual({ valid: false, answer: '' });
  });

  it('counts failed and unanswered nodes against health', () => {
    const failed = planEpisode({ id: 'e', task, variant: 'e', nodeStatus: 'runtime_error' });
    expect(readArtifactSignals(failed)).toMatchObject({ valid: true, answer: '', health: 0 });
  });

  it('reads consistency of the answers that feed the answer node', () => {
    const base = planEpisode({ id: 'f', task, variant: 'f', answer: '5' });
    const node = (id: string, answer: string) => ({ ...base.nodes[0]!, nodeId: id, answer, artifacts: { kind: 'cot' as const } });
    const episode: Episode = {
      ...base,
      plan: { dom: 'high', nodes: ['A', 'B', 'C', 'D'].map((id) => ({ id, agent: 'cot', input: id === 'D' ? '${A} ${B} ${C}' : 'x', params: {} })), edges: ['A', 'B', 'C'].map((from) => ({ from, to: 'D' })), answer: 'D' },
      nodes: [node('A', '5'), node('B', '5'), node('C', '6'), node('D', '5')],
    };
    expect(readArtifactSignals(episode).consistency).toBeCloseTo(2 / 3, 12);
  });
});

describe('consensusOf', () => {
  it('gives each valid answered episode the share of the other answered ones that agree', () => {
    const signals = [
      { valid: true, answer: '7' },
      { valid: true, answer: '7' },
      { valid: true, answer: '9' },
      { valid: true, answer: '' },
      { valid: false, answer: '' },
    ];
    expect(consensusOf(signals)).toEqual([0.5, 0.5, 0, undefined, undefined]);
    expect(consensusOf([{ valid: true, answer: '7' }])).toEqual([undefined]);
  });
});
