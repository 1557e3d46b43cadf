import { describe, expect, test } from 'vitest';
import { Rng } from '../../core/rng.js';
import { gradLogProb, headProbabilities, logProbOf, sampleDecision, type Decision } from './log-linear.js';
import { baseCheckpoint, cloneCheckpoint, type PolicyCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES, headSize, type HeadName } from './policy-heads.js';
import { questionFeatures } from './question-features.js';

const question = 'The number of pears is 5 more than the number of apples. Who counts them, and where?';

function randomCheckpoint(seed: number): PolicyCheckpoint {
  const checkpoint = cloneCheckpoint(baseCheckpoint());
  const rng = new Rng(seed);
  for (const head of HEAD_NAMES) checkpoint.weights[head].forEach((_, index, weights) => (weights[index] = rng.normal()));
  return checkpoint;
}

function decisions(checkpoint: PolicyCheckpoint, heads: HeadName[], seed: number): Decision[] {
  const rng = new Rng(seed);
  const features = questionFeatures(question);
  return heads.map((head) => sampleDecision(head, features, checkpoint, rng));
}

describe('log-linear heads', () => {
  test('probabilities are a distribution, stable for large logits', () => {
    const checkpoint = randomCheckpoint(1);
    checkpoint.weights.block.fill(400);
    const probabilities = headProbabilities(checkpoint.weights.block, questionFeatures(question), headSize('block'));
    expect(probabilities.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 12);
    for (const p of probabilities) expect(Number.isFinite(p)).toBe(true);
  });

  test('sampling follows the probabilities', () => {
    const checkpoint = randomCheckpoint(2);
    const features = questionFeatures(question);
    const expected = Array.from(headProbabilities(checkpoint.weights.block, features, headSize('block')));
    const counts = new Array<number>(headSize('block')).fill(0);
    const rng = new Rng(3);
    const draws = 20_000;
    for (let index = 0; index < draws; index++) counts[sampleDecision('block', features, checkpoint, rng).choice]! += 1;
    // 4.5 standard errors of a proportion: a false failure is very unlikely.
    counts.forEach((count, choice) => {
      const p = expected[choice] as number;
      expect(Math.abs(count / draws - p)).toBeLessThan(4.5 * Math.sqrt((p * (1 - p)) / draws) + 1e-9);
    });
  });

  test('gradLogProb matches central finite differences of logProbOf', () => {
    const checkpoint = randomCheckpoint(4);
    const chosen = decisions(checkpoint, ['dom', 'granularity', 'nodeBlock', 'finalBlock', 'samples', 'temperature', 'nodeBlock'], 5);
    const gradient = gradLogProb(question, chosen, checkpoint);
    const epsilon = 1e-6;
    let checked = 0;
    for (const head of HEAD_NAMES) {
      const weights = checkpoint.weights[head];
      for (let index = 0; index < weights.length; index++) {
        const saved = weights[index] as number;
        weights[index] = saved + epsilon;
        const up = logProbOf(question, chosen, checkpoint);
        weights[index] = saved - epsilon;
        const down = logProbOf(question, chosen, checkpoint);
        weights[index] = saved;
        expect(gradient[head][index]).toBeCloseTo((up - down) / (2 * epsilon), 6);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(500);
    // Heads never consulted get exactly zero gradient.
    expect(gradient.block.every((entry) => entry === 0)).toBe(true);
    expect(gradient.nodeBlock.some((entry) => entry !== 0)).toBe(true);
  });

  test('logProbOf recomputes features from the question text', () => {
    const checkpoint = randomCheckpoint(6);
    const chosen = decisions(checkpoint, ['dom', 'block'], 7);
    const other = 'A different question entirely?';
    expect(logProbOf(question, chosen, checkpoint)).not.toBeCloseTo(logProbOf(other, chosen, checkpoint), 6);
  });
});

describe('decision temperature', () => {
  test('temperature 0 takes the most likely choice; low temperatures sharpen the draw', () => {
    const checkpoint = randomCheckpoint(8);
    const features = questionFeatures(question);
    const probabilities = Array.from(headProbabilities(checkpoint.weights.block, features, headSize('block')));
    const best = probabilities.indexOf(Math.max(...probabilities));
    const rng = new Rng(9);
    for (let index = 0; index < 50; index++) expect(sampleDecision('block', features, checkpoint, rng, 0).choice).toBe(best);
    let sharpened = 0;
    for (let index = 0; index < 2000; index++) if (sampleDecision('block', features, checkpoint, rng, 0.25).choice === best) sharpened += 1;
    expect(sharpened / 2000).toBeGreaterThan(probabilities[best]! + 0.05);
  });
});
