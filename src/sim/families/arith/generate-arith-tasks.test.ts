import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/rng.js';
import { ArithFamilySchema } from '../../scenario/scenario-schema.js';
import type { ArithGraph, Definition } from './arith-graph.js';
import { generateArithTask, generateArithTasks } from './generate-arith-tasks.js';

const WIDE = ArithFamilySchema.parse({
  depth: [1, 12],
  breadth: [1, 4],
  parallel: [1, 4],
  horizon: [1, 4],
  distractors: [0, 20],
  misleading: [0, 4],
});
const DEFAULT = ArithFamilySchema.parse({});

/** Values recomputed from the definitions with arithmetic written out here, not the library's. */
function recompute(definitions: ReadonlyMap<string, Definition>): Map<string, number> {
  const values = new Map<string, number>();
  const valueOf = (id: string): number => {
    const known = values.get(id);
    if (known !== undefined) return known;
    const definition = definitions.get(id);
    if (definition === undefined) throw new Error(`undefined quantity ${id}`);
    let value: number;
    if (definition.kind === 'given') value = definition.value;
    else {
      const inputs = definition.parents.map(valueOf);
      const [a = NaN, b = NaN] = inputs;
      if (definition.kind === 'sum') value = inputs.reduce((total, input) => total + input, 0);
      else if (definition.kind === 'difference') value = a - b;
      else if (definition.kind === 'product') value = a * b;
      else if (definition.kind === 'times') value = definition.constant * a;
      else if (definition.kind === 'more') value = a + definition.constant;
      else value = a - definition.constant;
    }
    values.set(id, value);
    return value;
  };
  for (const id of definitions.keys()) valueOf(id);
  return values;
}

function ancestorsOf(graph: ArithGraph, id: string, found = new Set<string>()): Set<string> {
  if (found.has(id)) return found;
  found.add(id);
  const definition = graph.definitions.get(id);
  if (definition !== undefined && definition.kind !== 'given') for (const parent of definition.parents) ancestorsOf(graph, parent, found);
  return found;
}

function depthOf(graph: ArithGraph, id: string): number {
  const definition = graph.definitions.get(id);
  if (definition === undefined || definition.kind === 'given') return 0;
  return 1 + Math.max(...definition.parents.map((parent) => depthOf(graph, parent)));
}

function fanIn(graph: ArithGraph, id: string): number {
  const definition = graph.definitions.get(id);
  return definition === undefined || definition.kind === 'given' ? 0 : definition.parents.length;
}

const SAMPLES = Array.from({ length: 300 }, (_, index) => ({ index, ...generateArithTask(WIDE, 977, index, 'train') }));

describe('generateArithTask', () => {
  it('gives gold answers that the structure recomputes to, all integers in [1, 9999]', () => {
    for (const { task, structure } of SAMPLES) {
      const values = recompute(structure.graph.definitions);
      expect(task.answer).toBe(structure.graph.targets.map((id) => String(values.get(id))).join(', '));
      for (const [id, value] of values) {
        expect(Number.isInteger(value), id).toBe(true);
        expect(value).toBeGreaterThanOrEqual(1);
        expect(value).toBeLessThanOrEqual(9_999);
        expect(structure.values.get(id)).toBe(value);
      }
      for (const definition of structure.graph.definitions.values()) {
        if (definition.kind !== 'product') continue;
        for (const parent of definition.parents) expect(values.get(parent)).toBeLessThanOrEqual(30);
      }
    }
  });

  it('realises depth, breadth and parallel as measured on the structure', () => {
    for (const { structure } of SAMPLES) {
      const { graph, axes, components } = structure;
      const main = graph.targets[graph.targets.length - 1] ?? '';
      expect(depthOf(graph, main)).toBe(axes.depth);
      const insideComponents = components.flat().filter((id) => graph.definitions.get(id)?.kind !== 'given');
      if (axes.parallel > 1) {
        expect(fanIn(graph, main)).toBe(axes.parallel);
        const below = (graph.definitions.get(main) as { parents: readonly string[] }).parents.map((parent) => ancestorsOf(graph, parent));
        for (let left = 0; left < below.length; left++) {
          for (let right = left + 1; right < below.length; right++) {
            expect([...(below[left] ?? [])].filter((id) => below[right]?.has(id))).toEqual([]);
          }
        }
      } else {
        insideComponents.push(main);
      }
      expect(Math.max(...insideComponents.map((id) => fanIn(graph, id)))).toBe(axes.breadth);
    }
  });

  it('asks for `horizon` quantities on the answer path, the main target last', () => {
    for (const { task, structure } of SAMPLES) {
      const { graph, axes, needed } = structure;
      expect(task.answer?.split(', ')).toHaveLength(axes.horizon);
      expect(graph.targets).toHaveLength(axes.horizon);
      const main = graph.targets[graph.targets.length - 1] ?? '';
      const path = ancestorsOf(graph, main);
      for (const target of graph.targets) {
        expect(path.has(target)).toBe(true);
        expect(graph.definitions.get(target)?.kind).not.toBe('given');
      }
      const relationsOnPath = needed.filter((id) => graph.definitions.get(id)?.kind !== 'given').length;
      expect(task.metadata.steps).toBe(relationsOnPath);
    }
  });

  it('honours the drawn horizon whenever the path has enough relations', () => {
    let honoured = 0;
    for (const { structure } of SAMPLES) if (structure.axes.horizon >= 2) honoured++;
    expect(honoured).toBeGreaterThan(100);
    const chains = ArithFamilySchema.parse({ depth: [4, 6], breadth: [1, 1], horizon: [3, 3], parallel: [1, 1] });
    for (let index = 0; index < 30; index++) expect(generateArithTask(chains, 5, index, 'x').structure.axes.horizon).toBe(3);
  });

  it('adds exactly `distractors` statements that no target needs, and notes only on the path', () => {
    for (const { structure } of SAMPLES) {
      const { graph, axes, needed, values } = structure;
      const neededByTargets = new Set<string>();
      for (const target of graph.targets) for (const id of ancestorsOf(graph, target)) neededByTargets.add(id);
      expect(new Set(needed)).toEqual(neededByTargets);
      expect(graph.definitions.size - needed.length).toBe(axes.distractors);
      expect(graph.notes.size).toBe(axes.misleading);
      for (const [id, planted] of graph.notes) {
        expect(neededByTargets.has(id)).toBe(true);
        expect(graph.definitions.get(id)?.kind).not.toBe('given');
        expect(planted).not.toBe(values.get(id));
        expect(planted).toBeGreaterThanOrEqual(1);
      }
    }
    expect(SAMPLES.some(({ structure }) => structure.axes.distractors >= 15)).toBe(true);
    expect(SAMPLES.some(({ structure }) => structure.axes.misleading >= 3)).toBe(true);
  });

  it('writes one sentence per statement and note, then the question', () => {
    for (const { task, structure } of SAMPLES.slice(0, 50)) {
      const sentences = task.question.split(/(?<=[.?])\s+/);
      const questionSentences = structure.graph.targets.length > 1 ? 2 : 1;
      expect(sentences).toHaveLength(structure.graph.definitions.size + structure.graph.notes.size + questionSentences);
      expect(task.question.endsWith(questionSentences === 1 ? '?' : 'separated by commas.')).toBe(true);
    }
  });
});

describe('generateArithTasks', () => {
  it('is deterministic from the rng and varies with it', () => {
    const first = generateArithTasks(DEFAULT, { count: 20, rng: new Rng(3), idPrefix: 'train' });
    const again = generateArithTasks(DEFAULT, { count: 20, rng: new Rng(3), idPrefix: 'train' });
    const other = generateArithTasks(DEFAULT, { count: 20, rng: new Rng(4), idPrefix: 'train' });
    expect(again).toEqual(first);
    expect(other.map((task) => task.question)).not.toEqual(first.map((task) => task.question));
  });

  it('fills suite, metadata and ids that never collide across prefixes', () => {
    const train = generateArithTasks(DEFAULT, { count: 50, rng: new Rng(3), idPrefix: 'train' });
    const test = generateArithTasks(DEFAULT, { count: 50, rng: new Rng(3), idPrefix: 'test' });
    const ids = new Set([...train, ...test].map((task) => task.id));
    expect(ids.size).toBe(100);
    const [task] = train;
    expect(task?.id).toMatch(/^train-arith-0-[0-9a-f]{8}$/);
    expect(task?.suite).toBe('arith');
    expect(task?.metadata).toMatchObject({ family: 'arith', axes: expect.objectContaining({ depth: expect.any(Number) }), steps: expect.any(Number) });
    expect(new Set(train.map((item) => item.question)).size).toBe(50);
  });

  it('draws every axis across its whole configured range', () => {
    const seen: Record<string, Set<number>> = {};
    for (const { structure } of SAMPLES) {
      for (const [axis, value] of Object.entries(structure.axes)) (seen[axis] ??= new Set()).add(value);
    }
    expect(seen.depth?.size).toBe(12);
    expect(seen.breadth?.size).toBe(4);
    expect(seen.parallel?.size).toBe(4);
    expect(seen.horizon?.size).toBe(4);
    expect(seen.misleading?.size).toBe(5);
  });
});
