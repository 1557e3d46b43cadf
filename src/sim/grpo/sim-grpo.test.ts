import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../store/index.js';
import { createRewardSource, listStoredCheckpoints, saveCheckpointToStore, trainGrpo } from '../../train/index.js';
import { createSimEnvironment } from '../environment.js';
import { evaluateCheckpointByExecution } from '../improve/improve-by-execution.js';
import { baseCheckpoint, checkpointFromFile, logProbOf, type PolicyCheckpoint } from '../policy/index.js';
import { loadScenario } from '../scenario/load-scenario.js';
import { generateScenarioTasks } from '../scenario-tasks.js';
import { createSimTrainablePolicy } from './sim-trainable-policy.js';

const environment = await createSimEnvironment(loadScenario('default'));
const trainTasks = generateScenarioTasks(environment.scenario, environment.families, { split: 'train', count: 256 });
const directory = mkdtempSync(join(tmpdir(), 'orchrm-train-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the simulated orchestrator as a TrainablePolicy', () => {
  it('samples with its log-probability and the orchestrator tokens of writing the plan', async () => {
    const policy = createSimTrainablePolicy(environment);
    const task = trainTasks[0]!;
    const sample = await policy.sample(task, baseCheckpoint(), { seed: 5 });
    expect(sample.logProb).toBeCloseTo(logProbOf(task.question, sample.action, baseCheckpoint()), 12);
    expect(policy.logProb(task, sample.action, baseCheckpoint())).toBeCloseTo(sample.logProb, 12);
    expect(sample.usage.promptTokens).toBeGreaterThan(500);
    expect(sample.usage.completionTokens).toBeGreaterThan(0);
    expect(await policy.sample(task, baseCheckpoint(), { seed: 5 })).toEqual(sample);
    const greedy = await policy.sample(task, baseCheckpoint(), { seed: 6, temperature: 0 });
    expect((await policy.sample(task, baseCheckpoint(), { seed: 7, temperature: 0 })).action.map((decision) => decision.choice)).toEqual(greedy.action.map((decision) => decision.choice));
  });
});

describe('GRPO on the simulated environment', () => {
  const run = (seed: number) =>
    trainGrpo({
      policy: createSimTrainablePolicy(environment),
      from: baseCheckpoint(),
      tasks: trainTasks,
      reward: createRewardSource('execution', environment),
      config: { steps: 2, tasksPerStep: 4, groupSize: 4, seed, name: 'grpo-test' },
    });

  it('is deterministic under a seed, and another seed gives another run', async () => {
    const first = await run(11);
    const second = await run(11);
    expect(second.history).toEqual(first.history);
    expect(second.checkpoint.weights).toEqual(first.checkpoint.weights);
    const other = await run(12);
    expect(other.checkpoint.weights).not.toEqual(first.checkpoint.weights);
    expect(first.history[1]?.tokens.execution).toBeGreaterThan(first.history[0]?.tokens.execution ?? Infinity);
    expect(first.history[1]?.tokens.orchestrator).toBeGreaterThan(0);
    expect(first.history[1]?.tokens.verification).toBe(0);
  }, 30_000);

  it('with execution reward, beats the base checkpoint on the same held-out tasks', async () => {
    const evaluate = (checkpoint: PolicyCheckpoint) => environment.trainable.evaluate(checkpoint, { tasks: 80, samplesPerTask: 4 });
    const result = await trainGrpo({
      policy: createSimTrainablePolicy(environment),
      from: baseCheckpoint(),
      tasks: trainTasks,
      reward: createRewardSource('execution', environment),
      config: { steps: 8, tasksPerStep: 32, groupSize: 8, learningRate: 0.5, evalInterval: 0, seed: 3, name: 'grpo-exec' },
      evaluate,
    });
    const before = await evaluateCheckpointByExecution(environment, baseCheckpoint(), { tasks: 80, samplesPerTask: 4 });
    const after = await evaluateCheckpointByExecution(environment, result.checkpoint, { tasks: 80, samplesPerTask: 4 });
    // Issue 21 made the best plan depend on the task inside each family, so a family-level policy gains less:
    // measured 0.241 -> 0.294 (+5.3 points) here, against +8 or more before.
    expect(after.accuracy).toBeGreaterThan(before.accuracy + 0.04);
    expect(result.evaluations.map((point) => point.step)).toEqual([0, 8]);
    expect(result.evaluations[1]?.accuracy).toBe(after.accuracy);
    expect(result.evaluationTokens).toBeGreaterThan(0);

    // The trained checkpoint round-trips through the store's checkpoints table.
    const store = openStore(join(directory, 'train.db'));
    const policy = createSimTrainablePolicy(environment);
    saveCheckpointToStore(store, { orchestrator: 'sim-orchestrator', name: result.checkpoint.name, step: result.checkpoint.step, payload: policy.serialize(result.checkpoint) });
    const [stored] = listStoredCheckpoints(store, { orchestrator: 'sim-orchestrator', name: 'grpo-exec' });
    expect(stored?.step).toBe(16);
    expect(checkpointFromFile(stored?.payload, 'store').weights).toEqual(result.checkpoint.weights);
    store.close();
  }, 120_000);
});
