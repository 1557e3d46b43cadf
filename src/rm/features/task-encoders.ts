import type { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import { murmur3Ints, murmur3String, murmurFinish, murmurMix } from './murmur3.js';
import type { NamedFeatureSink } from './named-features.js';
import { kindNames, type PlanAnalysis } from './plan-analysis.js';
import type { TaskAnalysis } from './task-analysis.js';
import { splitWords } from './tokenize.js';

/** The `task-stats` encoder: each task statistic (see `analyzeTask`) as an indicator. */
export function createTaskStatsEncoder(mask: number): FeatureEncoder {
  const seed = murmur3String('task-stats', 0);
  return {
    name: 'task-stats',
    taskOnly: true,
    encode(task: TaskAnalysis, _plan, out: FeatureAccumulator) {
      const stats = task.statHashes;
      for (let index = 0; index < stats.length; index++) out.addHashed(murmur3Ints(seed, stats[index]!), mask, 1);
    },
    explain(task: TaskAnalysis, _plan, out: NamedFeatureSink) {
      const stats = task.statHashes;
      for (let index = 0; index < stats.length; index++) out.addHashed(`task ${task.statNames[index]!}`, murmur3Ints(seed, stats[index]!), mask, 1);
    },
  };
}

/**
 * The `cross` encoder: every task statistic and every distinct task word crossed with every
 * kind of the plan (each block type present, DoM, direct answer, invalid). This is what lets a
 * linear head learn "search helps on questions that name entities" or "sc helps on arithmetic".
 * Each group is scaled to norm about 1 per plan kind.
 */
export function createCrossEncoder(mask: number): FeatureEncoder {
  const statSeed = murmur3String('cross:stat', 0);
  const wordSeed = murmur3String('cross:word', 0);
  return {
    name: 'cross',
    taskOnly: false,
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const kinds = plan.kindHashes;
      const stats = task.statHashes;
      const words = task.distinctWordHashes;
      const statValue = 1 / Math.sqrt(Math.max(1, stats.length));
      const wordValue = 1 / Math.sqrt(Math.max(1, words.length));
      for (let kindIndex = 0; kindIndex < kinds.length; kindIndex++) {
        const kind = kinds[kindIndex]!;
        for (let index = 0; index < stats.length; index++) out.addHashed(murmur3Ints(statSeed, stats[index]!, kind), mask, statValue);
        for (let index = 0; index < words.length; index++) out.addHashed(murmur3Ints(wordSeed, words[index]!, kind), mask, wordValue);
      }
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const kinds = plan.kindHashes;
      const kindLabels = kindNames(plan.plan);
      const stats = task.statHashes;
      const words = task.distinctWordHashes;
      const wordOfHash = new Map(splitWords(task.text).map((word) => [murmur3String(word, 0), word]));
      const statValue = 1 / Math.sqrt(Math.max(1, stats.length));
      const wordValue = 1 / Math.sqrt(Math.max(1, words.length));
      for (let kindIndex = 0; kindIndex < kinds.length; kindIndex++) {
        const kind = kinds[kindIndex]!;
        const kindLabel = kindLabels[kindIndex]!;
        for (let index = 0; index < stats.length; index++) out.addHashed(`task ${task.statNames[index]!} x plan ${kindLabel}`, murmur3Ints(statSeed, stats[index]!, kind), mask, statValue);
        for (let index = 0; index < words.length; index++) {
          out.addHashed(`task word "${wordOfHash.get(words[index]!) ?? '?'}" x plan ${kindLabel}`, murmur3Ints(wordSeed, words[index]!, kind), mask, wordValue);
        }
      }
    },
  };
}

/** Names inside a sentence: runs of capitalised words after a lower-case word or a comma ("the mayor of Quentin Farnner"). */
const NAME_SPAN = /(?<=[a-z,;:] )[A-Z][a-z]+(?: [A-Z][a-z]+)*/g;

/** The distinct names a task mentions (`NAME_SPAN`), in order of first mention. */
export function taskNames(text: string): string[] {
  return [...new Set(text.match(NAME_SPAN) ?? [])];
}

/**
 * The `names` encoder (issue 21): each name the task mentions crossed with each kind of the plan
 * (block types present, DoM, direct answer, invalid), scaled to norm about 1 per plan kind. What
 * a name stands for is not in the text: whether a model knows the entity without looking it up
 * (a famous one) is learnt from how plans did on other tasks about the same name, as a router
 * with entity embeddings would know it. It can also memorise names, so the demo chooses it only
 * when the validation split says so.
 */
export function createNamesEncoder(mask: number): FeatureEncoder {
  const seed = murmur3String('names', 0);
  // Plans of one task are scored one after another: read its names once.
  let lastTask: TaskAnalysis | undefined;
  let lastHashes: number[] = [];
  const hashes = (task: TaskAnalysis) => {
    if (lastTask !== task) [lastTask, lastHashes] = [task, taskNames(task.text).map((name) => murmur3String(name, 0))];
    return lastHashes;
  };
  return {
    name: 'names',
    taskOnly: false,
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const names = hashes(task);
      if (names.length === 0) return;
      addCrossedHashes(out, seed, mask, plan.kindHashes, names, 1 / Math.sqrt(names.length));
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const names = taskNames(task.text);
      if (names.length === 0) return;
      const kinds = plan.kindHashes;
      const kindLabels = kindNames(plan.plan);
      const value = 1 / Math.sqrt(names.length);
      for (let kindIndex = 0; kindIndex < kinds.length; kindIndex++) {
        for (const name of names) out.addHashed(`task name "${name}" x plan ${kindLabels[kindIndex]!}`, murmur3Ints(seed, murmur3String(name, 0), kinds[kindIndex]!), mask, value);
      }
    },
  };
}

/**
 * The `plan-shape` encoder: the plan's shape names (`planShape`) alone, words-free. With
 * `cross: true` (the `shape` item) every task shape name (`taskShape`) is also crossed with every
 * plan shape name, so the head can weigh a way of planning differently for differently shaped
 * tasks. Crosses are scaled to norm about 1 per plan.
 */
export function createShapeEncoder(mask: number, cross: boolean): FeatureEncoder {
  const planSeed = murmur3String('plan-shape', 0);
  const crossSeed = murmur3String('shape-cross', 0);
  // The cross hash murmur3Ints(crossSeed, taskHash, planHash) with its first block mixed in once
  // per task (plans of one task are scored one after another).
  let crossTask: TaskAnalysis | undefined;
  let crossStates = new Int32Array(0);
  return {
    name: cross ? 'shape' : 'plan-shape',
    taskOnly: false,
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const planHashes = plan.shapeHashes;
      const planCount = planHashes.length;
      const planValue = 1 / Math.sqrt(planCount);
      for (let index = 0; index < planCount; index++) out.addHashed(murmur3Ints(planSeed, planHashes[index]!), mask, planValue);
      if (!cross) return;
      if (crossTask !== task) {
        crossStates = Int32Array.from(task.shapeHashes, (taskHash) => murmurMix(crossSeed, taskHash));
        crossTask = task;
      }
      const taskCount = crossStates.length;
      const crossValue = 1 / Math.sqrt(planCount * taskCount);
      for (let planIndex = 0; planIndex < planCount; planIndex++) {
        const planHash = planHashes[planIndex]!;
        for (let index = 0; index < taskCount; index++) out.addHashed(murmurFinish(murmurMix(crossStates[index]!, planHash), 2), mask, crossValue);
      }
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      const planNames = plan.shapeNames;
      const planValue = 1 / Math.sqrt(planNames.length);
      for (const name of planNames) out.addHashed(`plan ${name}`, murmur3Ints(planSeed, murmur3String(name, 0)), mask, planValue);
      if (!cross) return;
      const taskNames = task.shapeNames;
      const crossValue = 1 / Math.sqrt(planNames.length * taskNames.length);
      for (const planName of planNames) {
        for (const taskName of taskNames) {
          out.addHashed(`task ${taskName} x plan ${planName}`, murmur3Ints(crossSeed, murmur3String(taskName, 0), murmur3String(planName, 0)), mask, crossValue);
        }
      }
    },
  };
}

/** Adds one feature of `value` for every (plan hash, task hash) pair: a task fact crossed with what the plan holds. */
export function addCrossedHashes(out: FeatureAccumulator, seed: number, mask: number, planHashes: ArrayLike<number> & Iterable<number>, taskHashes: ArrayLike<number> & Iterable<number>, value: number): void {
  for (const planHash of planHashes) {
    for (const taskHash of taskHashes) out.addHashed(murmur3Ints(seed, taskHash, planHash), mask, value);
  }
}
