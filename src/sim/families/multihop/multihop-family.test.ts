import { describe, expect, test } from 'vitest';
import { Rng } from '../../../core/rng.js';
import type { Task } from '../../../core/task.js';
import { MultihopFamilySchema } from '../../scenario/scenario-schema.js';
import type { PromptView, SimStep, StepOutcome } from '../family.js';
import { createMultihopFamily } from './create-multihop-family.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { buildMultihopWorld } from './multihop-world.js';
import { UNKNOWN_ANSWER } from './read-multihop.js';

const SEED = 7;
const config = MultihopFamilySchema.parse({ hops: [1, 4], entities: 300 });
const family = createMultihopFamily(config, SEED);
const { kb } = buildMultihopWorld(config.entities, SEED);
const tasks = family.generate({ count: 200, rng: new Rng(3), idPrefix: 'test' });
const documentsById = new Map(family.corpus().map((document) => [document.id, document]));

// Written out here rather than imported, so gold answers are recomputed independently of the generator.
const TARGET_TYPE = { mentor: 'person', employer: 'company', birthplace: 'city', founder: 'person', headquarters: 'city', foundedYear: 'year', mayor: 'person', country: 'country' } as const;
type Relation = keyof typeof TARGET_TYPE;
interface Node {
  type: string;
  index: number;
}

function findEntity(world: KnowledgeBase, name: string): Node {
  for (const type of ['person', 'company', 'city'] as const) {
    const index = world.names[type].indexOf(name);
    if (index >= 0) return { type, index };
  }
  throw new Error(`no entity named ${name}`);
}

function nameOf(world: KnowledgeBase, node: Node): string {
  if (node.type === 'year') return String(node.index);
  if (node.type === 'country') return world.countries[node.index] as string;
  return world.names[node.type as 'person'][node.index] as string;
}

/** Subjects of every hop, then the answer. */
function walk(world: KnowledgeBase, start: Node, chain: readonly Relation[]): Node[] {
  const nodes = [start];
  for (const relation of chain) {
    const current = nodes[nodes.length - 1] as Node;
    nodes.push({ type: TARGET_TYPE[relation], index: world.facts[relation][current.index] as number });
  }
  return nodes;
}

function chainOf(task: Task): Relation[] {
  return task.metadata.chain as Relation[];
}

function docOf(node: Node) {
  return documentsById.get(`kb-${node.type}-${node.index}`) as { id: string; title: string; text: string };
}

function view(subTask: string, originalQuestion = subTask, documents: PromptView['documents'] = []): PromptView {
  return { subTask, originalQuestion, documents };
}

const allOk = (): StepOutcome => ({ ok: true });

describe('multihop tasks', () => {
  test('gold answers equal an independent walk of the knowledge base from the metadata chain', () => {
    const hopCounts = new Set<number>();
    for (const task of tasks) {
      const chain = chainOf(task);
      const nodes = walk(kb, findEntity(kb, task.metadata.anchor as string), chain);
      expect(task.answer).toBe(nameOf(kb, nodes[nodes.length - 1] as Node));
      expect(task.metadata).toMatchObject({ family: 'multihop', axes: { hops: chain.length } });
      expect(task.suite).toBe('multihop');
      expect(task.id).toMatch(/^test-multihop-\d+-[0-9a-f]{6}$/);
      // No chain revisits an entity, so every hop asks something new.
      const keys = nodes.map((node) => `${node.type}:${node.index}`);
      expect(new Set(keys).size).toBe(keys.length);
      hopCounts.add(chain.length);
    }
    expect([...hopCounts].sort()).toEqual([1, 2, 3, 4]);
  });

  test('the reader parses every question; all-ok solving gives the gold answer, with or without documents', () => {
    for (const task of tasks) {
      const chain = chainOf(task);
      const nodes = walk(kb, findEntity(kb, task.metadata.anchor as string), chain);
      const bare = family.read(view(task.question));
      expect(bare).toMatchObject({ family: 'multihop', recognised: true, correctAnswer: task.answer, distractorCount: 0 });
      expect(bare?.steps.map((step) => [step.kind, step.evidence, step.difficulty])).toEqual(chain.map(() => ['lookup', 'absent', 1]));
      expect(bare?.solve(allOk)).toMatchObject({ answer: task.answer });
      expect(bare?.solve(allOk).reasoning).toHaveLength(chain.length);

      const needed = nodes.slice(0, -1).map(docOf);
      const extra = [documentsById.get('kb-note-1'), documentsById.get('kb-note-2')] as { id: string; title: string; text: string }[];
      const full = family.read(view(task.question, task.question, [...extra, ...needed]));
      expect(full?.steps.every((step) => step.evidence === 'in_context')).toBe(true);
      expect(full?.distractorCount).toBe(2);
      expect(full?.nextQuery()).toBeUndefined();
      expect(full?.solve(allOk).answer).toBe(task.answer);
    }
  });

  test('step decompositions parse back, and chaining their true answers reaches the gold answer', () => {
    for (const task of tasks) {
      const chain = chainOf(task);
      const nodes = walk(kb, findEntity(kb, task.metadata.anchor as string), chain);
      const whole = family.read(view(task.question));
      const decomposition = family.decompose(task.question, 'steps');
      expect(decomposition?.subQuestions).toHaveLength(chain.length);
      expect(decomposition?.finalId).toBe(decomposition?.subQuestions.at(-1)?.id);
      const answers: Record<string, string> = {};
      decomposition?.subQuestions.forEach((subQuestion, hop) => {
        const previous = decomposition.subQuestions[hop - 1];
        expect(subQuestion.dependsOn).toEqual(previous === undefined ? [] : [previous.id]);
        if (previous !== undefined) expect(subQuestion.render({ [previous.id]: `\${${previous.id}}` })).toContain(`\${${previous.id}}`);
        const text = subQuestion.render(answers);
        const problem = family.read(view(text, task.question, [docOf(nodes[hop] as Node)]));
        const truth = nameOf(kb, nodes[hop + 1] as Node);
        expect(problem).toMatchObject({ recognised: true, correctAnswer: truth, distractorCount: 0 });
        expect(problem?.steps).toHaveLength(1);
        expect(problem?.steps[0]?.evidence).toBe('in_context');
        // The same hop carries the same key whether asked alone or inside the whole question.
        expect(problem?.steps[0]?.key).toBe(whole?.steps[hop]?.key);
        expect(problem?.taskKey).toBe(whole?.taskKey);
        const answer = problem?.solve(allOk).answer as string;
        expect(answer).toBe(truth);
        answers[subQuestion.id] = answer;
      });
      expect(answers[decomposition?.finalId as string]).toBe(task.answer);
      for (const granularity of ['whole', 'components'] as const) {
        const single = family.decompose(task.question, granularity);
        expect(single?.subQuestions.map((subQuestion) => subQuestion.render({}))).toEqual([task.question]);
      }
    }
  });

  test('text of another family is not read or decomposed; an unrecognised sub-task falls back to the whole task', () => {
    expect(family.read(view('What is 12 times 7?'))).toBeUndefined();
    expect(family.decompose('What is 12 times 7?', 'steps')).toBeUndefined();
    const task = tasks.find((candidate) => chainOf(candidate).length === 3) as Task;
    const problem = family.read(view('First find who founded it, then look up their mentor.', task.question));
    expect(problem).toMatchObject({ recognised: false, correctAnswer: task.answer });
    expect(problem?.steps).toHaveLength(3);
  });
});

describe('solving with failures', () => {
  test('a failed hop gives a wrong entity of the right type and the chain continues from it', () => {
    let checked = 0;
    let wrongFinal = 0;
    for (const task of tasks.filter((candidate) => chainOf(candidate).length >= 2)) {
      const chain = chainOf(task);
      const nodes = walk(kb, findEntity(kb, task.metadata.anchor as string), chain);
      const problem = family.read(view(task.question));
      const result = problem?.solve((_step: SimStep, index: number): StepOutcome => (index === 0 ? { ok: false, wrongSeed: 1000 + checked, planted: false } : { ok: true }));
      const firstLine = result?.reasoning[0] as string;
      const truth = nameOf(kb, nodes[1] as Node);
      // Reasoning lines end with the value; the wrong value must be an entity of the hop's type.
      const type = TARGET_TYPE[chain[0] as Relation] as 'person' | 'company' | 'city';
      const wrongName = kb.names[type].filter((name) => firstLine.endsWith(` ${name}.`)).sort((a, b) => b.length - a.length)[0] as string;
      expect(wrongName).toBeDefined();
      expect(wrongName).not.toBe(truth);
      const wrong = findEntity(kb, wrongName);
      const propagated = walk(kb, wrong, chain.slice(1));
      expect(result?.answer).toBe(nameOf(kb, propagated[propagated.length - 1] as Node));
      if (result?.answer !== task.answer) wrongFinal++;
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(wrongFinal / checked).toBeGreaterThan(0.8);
  });

  test('failed hops prefer values named in the retrieved documents, and years and countries stay years and countries', () => {
    const task = tasks.find((candidate) => chainOf(candidate)[0] === 'mentor') as Task;
    const notes = ['kb-note-3', 'kb-note-4', 'kb-note-5', 'kb-note-6'].map((id) => documentsById.get(id)) as { id: string; title: string; text: string }[];
    const shown = notes.map((note) => note.text).join(' ');
    let fromDocuments = 0;
    for (let seed = 0; seed < 100; seed++) {
      const line = family.read(view(task.question, task.question, notes))?.solve(() => ({ ok: false, wrongSeed: seed, planted: false })).reasoning[0] as string;
      const name = line.slice(line.indexOf(' is ') + 4, -1);
      if (shown.includes(name)) fromDocuments++;
    }
    expect(fromDocuments).toBeGreaterThan(50);
    expect(fromDocuments).toBeLessThan(100);

    for (const task of tasks.filter((candidate) => ['foundedYear', 'country'].includes(chainOf(candidate).at(-1) as string))) {
      const answer = family.read(view(task.question))?.solve(() => ({ ok: false, wrongSeed: 5, planted: false })).answer as string;
      if (chainOf(task).at(-1) === 'foundedYear') expect(answer).toMatch(/^\d{4}$/);
      else expect(kb.countries).toContain(answer);
    }
  });

  test('an entity the base does not hold has no evidence and no right answer, even when every step succeeds', () => {
    const task = tasks.find((candidate) => chainOf(candidate)[0] === 'mentor' && chainOf(candidate).length >= 2) as Task;
    const problem = family.read(view('Who is the mentor of Zyx Unheardof?', task.question, family.corpus().slice(0, 20)));
    expect(problem).toMatchObject({ recognised: true, correctAnswer: UNKNOWN_ANSWER, distractorCount: 20 });
    expect(problem?.steps.map((step) => step.evidence)).toEqual(['absent']);
    expect(problem?.nextQuery()).toBe('Zyx Unheardof mentor');
    const answer = problem?.solve(allOk).answer as string;
    expect(kb.names.person).toContain(answer);
    // A company where a person is asked for is no answer either.
    const mismatch = family.read(view(`Who is the mentor of ${kb.names.company[0]}?`, task.question));
    expect(mismatch?.correctAnswer).toBe(UNKNOWN_ANSWER);
  });
});

describe('search queries', () => {
  test('ask for the first hop without evidence, about the subject the model can know', () => {
    const task = tasks.find((candidate) => chainOf(candidate).length === 3 && chainOf(candidate)[0] === 'founder') as Task;
    const nodes = walk(kb, findEntity(kb, task.metadata.anchor as string), chainOf(task));
    expect(family.read(view(task.question))?.nextQuery()).toBe(`${task.metadata.anchor} founder`);
    const afterFirst = family.read(view(task.question, task.question, [docOf(nodes[0] as Node)]));
    expect(afterFirst?.nextQuery()).toMatch(new RegExp(`^${nameOf(kb, nodes[1] as Node)} `));
    // A document about a later hop alone does not skip the missing first one.
    const laterOnly = family.read(view(task.question, task.question, [docOf(nodes[1] as Node)]));
    expect(laterOnly?.steps.map((step) => step.evidence)).toEqual(['absent', 'in_context', 'absent']);
    expect(laterOnly?.nextQuery()).toBe(`${task.metadata.anchor} founder`);
  });
});

describe('determinism', () => {
  test('the same seed gives the same corpus, tasks and responses; another seed another world', () => {
    const again = createMultihopFamily(config, SEED);
    expect(again.corpus()).toEqual(family.corpus());
    const tasksAgain = again.generate({ count: 200, rng: new Rng(3), idPrefix: 'test' });
    expect(tasksAgain).toEqual(tasks);
    for (const task of tasks.slice(0, 30)) {
      const documents = family.corpus().slice(0, 8);
      const outcome = (_step: SimStep, index: number): StepOutcome => (index % 2 === 0 ? { ok: false, wrongSeed: index + 1, planted: false } : { ok: true });
      const first = family.read(view(task.question, task.question, documents));
      const second = again.read(view(task.question, task.question, documents));
      expect(second?.steps).toEqual(first?.steps);
      expect(second?.solve(outcome)).toEqual(first?.solve(outcome));
    }
    expect(createMultihopFamily(config, SEED + 1).corpus()).not.toEqual(family.corpus());
  });
});
