import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BtConfigInput } from './bt-config.js';
import type { EpochLog } from './bt-trainer.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { trainRewardModel } from './train-reward-model.js';

const pairs = syntheticPairs({ pairs: 200, seed: 8, validationShare: 0.3 });
// Patience 1 with a large step: validation loss stalls early, so the run stops early and restores an earlier best epoch.
const CONFIG: BtConfigInput = { encoder: 'words:1,structure,bits:10', head: { kind: 'mlp', hidden: 8 }, maxEpochs: 30, learningRate: 0.3, earlyStoppingPatience: 1, seed: 4, tune: false };
const withoutTimes = (history: readonly EpochLog[]) => history.map(({ durationMs: _durationMs, ...log }) => log);

describe('resume state of trainRewardModel', () => {
  it('an interrupted run resumed from its checkpoint ends exactly like an uninterrupted one, early stopping included', async () => {
    const reference = await trainRewardModel(pairs, CONFIG);
    expect(reference.training.stoppedEarly).toBe(true);
    expect(reference.training.bestEpoch).toBeLessThan(reference.training.history.length);

    const stateFile = join(mkdtempSync(join(tmpdir(), 'orchrm-bt-state-')), 'model.training.safetensors');
    const stopAt = reference.training.history.length - 1;
    await expect(
      trainRewardModel(pairs, CONFIG, {
        stateFile,
        events: (event) => {
          if (event.type === 'epoch-end' && event.log.epoch === stopAt) throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    expect(existsSync(stateFile)).toBe(true);

    let resumedAfter = -1;
    const resumed = await trainRewardModel(pairs, CONFIG, { stateFile, resume: true, events: (event) => { if (event.type === 'rm-training-resume') resumedAfter = event.epochsDone; } });
    expect(resumedAfter).toBe(stopAt - 1);
    expect(resumed.training.steps).toBe(reference.training.steps);
    expect(resumed.training.bestEpoch).toBe(reference.training.bestEpoch);
    expect(resumed.training.stoppedEarly).toBe(true);
    expect(withoutTimes(resumed.training.history)).toStrictEqual(withoutTimes(reference.training.history));
    resumed.model.head.tensors.forEach((tensor, index) => expect(tensor.values).toStrictEqual(reference.model.head.tensors[index]!.values));
    const plans = pairs.slice(0, 10).map((pair) => pair.winner.planText);
    expect(await resumed.model.score(pairs[0]!.question, plans)).toStrictEqual(await reference.model.score(pairs[0]!.question, plans));
  });

  it('refuses a checkpoint of another config or other pairs, and a file that is not one', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'orchrm-bt-state-')), 'model.training.safetensors');
    await trainRewardModel(pairs, { ...CONFIG, maxEpochs: 2 }, { stateFile });
    await expect(trainRewardModel(pairs, { ...CONFIG, maxEpochs: 3 }, { stateFile, resume: true })).rejects.toThrow(/written for other pairs or another config/);
    await expect(trainRewardModel(pairs.slice(1), { ...CONFIG, maxEpochs: 2 }, { stateFile, resume: true })).rejects.toThrow(/written for other pairs or another config/);
    writeFileSync(stateFile, 'not a checkpoint');
    await expect(trainRewardModel(pairs, { ...CONFIG, maxEpochs: 2 }, { stateFile, resume: true })).rejects.toThrow(/is not usable .*delete it to train from scratch/);
  });

  it('resumes a tuned run: finished trials are reloaded, the interrupted one continues, the model is the same', async () => {
    const tuned: BtConfigInput = { ...CONFIG, maxEpochs: 6, tune: { l2: [1e-6, 1e-2], learningRate: [0.3] } };
    const reference = await trainRewardModel(pairs, tuned);
    expect(reference.trials.map((trial) => trial.l2)).toEqual([1e-6, 1e-2]);
    const best = reference.trials.reduce((top, trial) => (trial.validationLoss < top.validationLoss ? trial : top));
    expect(reference.config.l2).toBe(best.l2);
    const stateFile = join(mkdtempSync(join(tmpdir(), 'orchrm-bt-state-')), 'model.training.safetensors');
    let trialsDone = 0;
    await expect(
      trainRewardModel(pairs, tuned, {
        stateFile,
        events: (event) => {
          if (event.type === 'tuning-trial-end') trialsDone++;
          // Interrupt in the second trial, after its first epoch.
          if (event.type === 'epoch-end' && trialsDone === 1 && event.log.epoch === 2) throw new Error('interrupted');
        },
      }),
    ).rejects.toThrow('interrupted');
    expect(existsSync(`${stateFile}.trial-0`)).toBe(true);
    const resumed = await trainRewardModel(pairs, tuned, { stateFile, resume: true });
    expect(resumed.stateFiles).toEqual([`${stateFile}.trial-0`, `${stateFile}.trial-1`]);
    expect(resumed.trials).toStrictEqual(reference.trials);
    resumed.model.head.tensors.forEach((tensor, index) => expect(tensor.values).toStrictEqual(reference.model.head.tensors[index]!.values));
  });
});
