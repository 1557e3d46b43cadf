import { describe, expect, it } from 'vitest';
import type { Environment } from '../environment/index.js';
import { createSimEnvironment } from './environment.js';
import { baseCheckpoint, cloneCheckpoint } from './policy/index.js';
import { loadScenario } from './scenario/load-scenario.js';
import { generateScenarioTasks } from './scenario-tasks.js';

const strong = cloneCheckpoint(baseCheckpoint(), { name: 'strong', step: 40 });

describe('the simulated environment as an Environment', () => {
  it('makes the scenario tasks by split, and asks how many', async () => {
    const environment: Environment = await createSimEnvironment(loadScenario('arith'));
    const simulated = await createSimEnvironment(loadScenario('arith'));
    expect(environment.tasks('test', 5)).toEqual(generateScenarioTasks(simulated.scenario, simulated.families, { split: 'test', count: 5 }));
    expect(() => environment.tasks('train')).toThrow(/say how many train tasks/);
    expect(environment.retriever).toBeDefined();
    expect(environment.templates?.names).toContain('cot');
  });

  it('gives the orchestrator at a checkpoint, recorded with its step, by name or model name', async () => {
    const environment = await (await createSimEnvironment(loadScenario('arith'))).withCheckpoints([strong]);
    expect(environment.orchestrator().ref).toEqual({ name: 'sim-orchestrator', checkpoint: 'base', step: 0 });
    expect(environment.orchestrator('strong').ref).toEqual({ name: 'sim-orchestrator', checkpoint: 'strong', step: 40 });
    expect(environment.orchestrator('sim-orchestrator-strong', { format: 'xml' })).toMatchObject({ ref: { checkpoint: 'strong', step: 40 }, format: 'xml' });
    // A checkpoint it does not serve is recorded without a step and refused on the first plan.
    const unknown = environment.orchestrator('missing');
    expect(unknown.ref).toEqual({ name: 'sim-orchestrator', checkpoint: 'missing' });
    const [task] = environment.tasks('test', 1);
    await expect(unknown.writePlan(task!, { sampleIndex: 0, seed: 1 })).rejects.toThrow(/no model "sim-orchestrator-missing"/);
    expect((await environment.orchestrator('strong').writePlan(task!, { sampleIndex: 0, seed: 1 })).text.length).toBeGreaterThan(0);
  });

  it('has a trainable orchestrator starting from base', async () => {
    const environment = await createSimEnvironment(loadScenario('arith'));
    const { trainable } = environment;
    expect(trainable.initialCheckpoint()).toEqual(baseCheckpoint());
    expect(trainable.policy.ref(strong)).toEqual({ name: 'sim-orchestrator', checkpoint: 'strong', step: 40 });
    expect(trainable.parseCheckpoint(trainable.policy.serialize(strong), 'test')).toEqual(strong);
    const evaluation = await trainable.evaluate(baseCheckpoint(), { tasks: 4, samplesPerTask: 1 });
    expect(evaluation.episodes).toBe(4);
    expect(evaluation.tokens).toBeGreaterThan(0);
  });
});
