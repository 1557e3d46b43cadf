import type { Task } from '../../../core/task.js';
import { Rng, deriveSeed } from '../../../core/rng.js';
import { sha256 } from '../../../core/hash.js';
import type { ArithFamilyConfig } from '../../scenario/scenario-schema.js';
import type { GenerateOptions } from '../family.js';
import type { ArithAxes } from './generate-arith-graph.js';
import { generateArithGraph } from './generate-arith-graph.js';
import { renderArithQuestion } from './render-arith-question.js';
import { formatNumber } from './arith-graph.js';

function draw(rng: Rng, range: readonly [number, number]): number {
  return rng.int(range[0], range[1]);
}

/** Axes of one task, each uniform over its configured range. */
export function drawArithAxes(rng: Rng, config: ArithFamilyConfig): ArithAxes {
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
 * Generates `options.count` arith tasks. One draw from `options.rng` seeds the batch, and task n
 * is a function of that seed and n alone. Ids are `<prefix>-arith-<n>-<hash>`, the hash covering
 * the prefix and the question, so batches under different prefixes never share an id.
 */
export function generateArithTasks(config: ArithFamilyConfig, options: GenerateOptions): Task[] {
  const batchSeed = options.rng.nextUint32();
  const tasks: Task[] = [];
  for (let index = 0; index < options.count; index++) {
    const rng = new Rng(deriveSeed(batchSeed, index));
    const generated = generateArithGraph(rng.fork('graph'), drawArithAxes(rng.fork('axes'), config));
    const question = renderArithQuestion(rng.fork('render'), generated.graph);
    const steps = generated.needed.filter((id) => generated.graph.definitions.get(id)?.kind !== 'given').length;
    const hash = sha256(`${options.idPrefix}\u0000${question}`).slice(0, 8);
    tasks.push({
      id: `${options.idPrefix}-arith-${index}-${hash}`,
      suite: 'arith',
      question,
      answer: generated.graph.targets.map((id) => formatNumber(generated.values.get(id) ?? 0)).join(', '),
      metadata: { family: 'arith', axes: generated.axes, steps },
    });
  }
  return tasks;
}
