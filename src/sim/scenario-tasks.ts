import { deriveSeed, Rng, sha256, type Task, type TaskSplit, UserError } from '../core/index.js';
import type { SimFamily } from './families/family.js';
import type { Scenario } from './scenario/scenario-schema.js';

export type { TaskSplit };

/** Share of generated questions that belong to the test split. */
const TEST_SHARE = 0.25;

/**
 * Which split a question belongs to, decided by a hash of its text: train and test never
 * share a question, whatever counts are asked for (families over a finite knowledge base can
 * generate the same question twice).
 */
export function splitOf(question: string): TaskSplit {
  return Number.parseInt(sha256(question).slice(0, 8), 16) / 0x1_0000_0000 < TEST_SHARE ? 'test' : 'train';
}

export interface ScenarioTaskOptions {
  split: TaskSplit;
  count: number;
}

/**
 * Tasks of a scenario's split, mixed over its families by weight (largest remainder), then
 * interleaved by a seeded shuffle. Deterministic in the scenario seed; no question appears twice.
 */
export function generateScenarioTasks(scenario: Scenario, families: readonly SimFamily[], options: ScenarioTaskOptions): Task[] {
  const weighted = families
    .map((family) => ({ family, weight: scenario.families[family.name]?.weight ?? 0 }))
    .filter((entry) => entry.weight > 0);
  const totalWeight = weighted.reduce((sum, entry) => sum + entry.weight, 0);
  if (totalWeight === 0) return [];
  const quotas = weighted.map((entry) => (options.count * entry.weight) / totalWeight);
  const counts = quotas.map(Math.floor);
  const byRemainder = quotas.map((quota, index) => ({ index, remainder: quota - Math.floor(quota) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (let i = 0; i < options.count - counts.reduce((sum, count) => sum + count, 0); i++) {
    const index = byRemainder[i]?.index ?? 0;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  const tasks = weighted.flatMap((entry, index) => tasksOfFamily(scenario, entry.family, options.split, counts[index] ?? 0));
  return new Rng(deriveSeed(scenario.seed, `mix:${options.split}`)).shuffle(tasks);
}

function tasksOfFamily(scenario: Scenario, family: SimFamily, split: TaskSplit, count: number): Task[] {
  if (count === 0) return [];
  const wanted = split === 'test' ? TEST_SHARE : 1 - TEST_SHARE;
  // Generate more than needed, keep this split's questions; grow if a small pool ran short.
  for (let batch = Math.ceil(count / wanted) + 16; ; batch *= 2) {
    const generated = family.generate({ count: batch, rng: new Rng(deriveSeed(scenario.seed, `tasks:${family.name}`)), idPrefix: 'sim' });
    const seen = new Set<string>();
    const kept: Task[] = [];
    for (const task of generated) {
      if (seen.has(task.question) || splitOf(task.question) !== split) continue;
      seen.add(task.question);
      kept.push({ ...task, id: `${split}-${task.id}`, metadata: { ...task.metadata, split } });
      if (kept.length === count) return kept;
    }
    if (batch > 64 * count + 1024) {
      throw new UserError(
        `family ${family.name} produced only ${kept.length} distinct ${split} questions of the ${count} asked for; ask for fewer tasks or enlarge the family (e.g. multihop.entities)`,
      );
    }
  }
}
