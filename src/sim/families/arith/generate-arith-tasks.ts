import { deriveSeed, Rng, sha256, type Task } from '../../../core/index.js';
import type { ArithFamilyConfig } from '../../scenario/scenario-schema.js';
import type { GenerateOptions } from '../family.js';
import type { ArithAxes, GeneratedArith } from './generate-arith-graph.js';
import { generateArithGraph } from './generate-arith-graph.js';
import { renderArithQuestion } from './render-arith-question.js';
import { type ArithGraph, formatNumber } from './arith-graph.js';
import { independentParts } from './independent-parts.js';
import { planSteps } from './plan-steps.js';

function draw(rng: Rng, range: readonly [number, number]): number {
  return rng.int(range[0], range[1]);
}

/** Axes of one task, each uniform over its configured range. */
function drawArithAxes(rng: Rng, config: ArithFamilyConfig): ArithAxes {
  return {
    depth: draw(rng, config.depth),
    breadth: draw(rng, config.breadth),
    parallel: draw(rng, config.parallel),
    horizon: draw(rng, config.horizon),
    distractors: draw(rng, config.distractors),
    misleading: draw(rng, config.misleading),
  };
}

/**
 * The task's structure as its text shows it, which decides the plan that suits it (docs/sim.md
 * §4.7): `note` when a misleading note is planted on the answer's path (a critic catches it),
 * `split` when the answer combines independent parts (decomposition keeps them apart), else
 * `chain` (one chain of relations, where independent samples help).
 */
export type ArithStructure = 'note' | 'split' | 'chain';

export function arithStructure(graph: ArithGraph): ArithStructure {
  if (graph.notes.size > 0) return 'note';
  const { order } = planSteps(graph, graph.targets, new Map());
  return independentParts(graph, graph.targets, order) > 1 ? 'split' : 'chain';
}

/** One generated task and the structure it was rendered from. */
export interface GeneratedArithTask {
  task: Task;
  structure: GeneratedArith;
}

/** Task `index` of the batch seeded by `batchSeed`: a function of those two, the config and the prefix alone. */
export function generateArithTask(config: ArithFamilyConfig, batchSeed: number, index: number, idPrefix: string): GeneratedArithTask {
  const rng = new Rng(deriveSeed(batchSeed, index));
  const structure = generateArithGraph(rng.fork('graph'), drawArithAxes(rng.fork('axes'), config));
  const { graph, values, needed, axes } = structure;
  const question = renderArithQuestion(rng.fork('render'), graph);
  const steps = needed.filter((id) => graph.definitions.get(id)?.kind !== 'given').length;
  const hash = sha256(`${idPrefix}\u0000${question}`).slice(0, 8);
  const task: Task = {
    id: `${idPrefix}-arith-${index}-${hash}`,
    suite: 'arith',
    question,
    answer: graph.targets.map((id) => formatNumber(values.get(id) ?? 0)).join(', '),
    metadata: { family: 'arith', axes: { ...axes, structure: arithStructure(graph) }, steps },
  };
  return { task, structure };
}

/**
 * Generates `options.count` arith tasks. One draw from `options.rng` seeds the batch, and task n
 * is a function of that seed and n alone. Ids are `<prefix>-arith-<n>-<hash>`, the hash covering
 * the prefix and the question, so batches under different prefixes never share an id.
 */
export function generateArithTasks(config: ArithFamilyConfig, options: GenerateOptions): Task[] {
  const batchSeed = options.rng.nextUint32();
  const tasks: Task[] = [];
  for (let index = 0; index < options.count; index++) tasks.push(generateArithTask(config, batchSeed, index, options.idPrefix).task);
  return tasks;
}
