import { describe, expect, it } from 'vitest';
import { syntheticPairs } from '../synthetic-pairs.js';
import { trainRewardModel } from '../train-reward-model.js';
import type { HeldOutEpisode } from './evaluate-model.js';
import { curveShareTasks, curveTaskOrder, learningCurve } from './learning-curve.js';

const CONFIG = { maxEpochs: 2, seed: 1 };

describe('learningCurve', () => {
  it("judges a model already trained on a share's tasks instead of training it again, and leaves it open", async () => {
    const pairs = syntheticPairs({ pairs: 300, seed: 4 });
    // Held out: two tasks of the synthetic world, each plan of their pairs graded by whether it ever won.
    const heldOutTasks = [...new Set(pairs.map((pair) => pair.taskId))].slice(0, 2);
    const winners = new Set(pairs.map((pair) => `${pair.taskId}|${pair.winner.planText}`));
    const episodes: HeldOutEpisode[] = pairs
      .filter((pair) => heldOutTasks.includes(pair.taskId))
      .flatMap((pair) => [pair.winner.planText, pair.loser.planText].map((planText) => ({ taskId: pair.taskId, question: pair.question, planText })))
      .filter((entry, index, all) => all.findIndex((other) => other.taskId === entry.taskId && other.planText === entry.planText) === index)
      .map((entry) => ({ ...entry, id: `${entry.taskId}:${entry.planText.length}:${entry.planText.slice(0, 40)}`, correct: winners.has(`${entry.taskId}|${entry.planText}`), valid: true }));
    const heldOut = { pairs: [], episodes };
    const training = pairs.filter((pair) => !heldOutTasks.includes(pair.taskId));
    const tokensByTask = new Map(training.map((pair) => [pair.taskId, 100]));
    const options = { shares: [0.5, 1], n: 2, config: CONFIG };

    const trainedEachTime = await learningCurve(training, heldOut, tokensByTask, options);

    const half = curveShareTasks(curveTaskOrder(tokensByTask.keys(), heldOut, 0), 0.5);
    const { model } = await trainRewardModel(
      training.filter((pair) => half.has(pair.taskId)),
      { ...CONFIG, ensembleSize: 0 },
      { name: 'given' },
    );
    let scored = 0;
    let closed = 0;
    const score = model.score.bind(model);
    model.score = async (...args) => {
      scored++;
      return score(...args);
    };
    const close = model.close.bind(model);
    model.close = () => {
      closed++;
    };
    const reused = await learningCurve(training, heldOut, tokensByTask, { ...options, trained: new Map([[0.5, model]]) });
    // The same settings on the same share's pairs: the same point; the given model did the scoring and was not closed.
    expect(reused).toEqual(trainedEachTime);
    expect(scored).toBeGreaterThan(0);
    expect(closed).toBe(0);
    close();
  }, 60_000);
});
