import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeAnswer } from '../../agents/normalize-answer.js';
import { createBlockRegistry } from '../../agents/registry.js';
import type { Plan } from '../../core/plan.js';
import { Rng } from '../../core/rng.js';
import type { Task } from '../../core/task.js';
import { executePlan } from '../../exec/execute-plan.js';
import { createBm25Retriever } from '../../tasks/bm25-retriever.js';
import type { SimFamily } from '../families/family.js';
import { loadHotpotFamily } from '../families/hotpot/load-hotpot-family.js';
import { HotpotFamilySchema, ScenarioSchema, type ScenarioInput } from '../scenario/scenario-schema.js';
import { createSimWorker } from './create-sim-worker.js';

// A tiny HotpotQA-format file in a temp dir (tests must not read ../shared/data).
const records = [
  { _id: 'h1', question: 'In which city was the director of the film Blue Harbor born?', answer: 'Lisbon', type: 'bridge', level: 'medium', supporting_facts: [['Blue Harbor', 0], ['Ana Ruiz', 0]] },
  { _id: 'h2', question: 'Are Tom Vale and Jim Orr both painters?', answer: 'no', type: 'comparison', level: 'easy', supporting_facts: [['Tom Vale', 0], ['Jim Orr', 0]] },
];
const corpus = [
  { id: 'Blue Harbor', title: 'Blue Harbor', text: 'Blue Harbor is a 1998 drama film directed by Ana Ruiz and set in Porto.' },
  { id: 'Ana Ruiz', title: 'Ana Ruiz', text: 'Ana Ruiz is a Portuguese film director who was born in Lisbon in 1960.' },
  { id: 'Tom Vale', title: 'Tom Vale', text: 'Tom Vale was an English painter of coastal landscapes.' },
  { id: 'Jim Orr', title: 'Jim Orr', text: 'Jim Orr is a Scottish poet and novelist.' },
  { id: 'Green Harbor', title: 'Green Harbor', text: 'Green Harbor is a 2004 comedy film directed by Luis Mota, born in Madrid.' },
  { id: 'Porto', title: 'Porto', text: 'Porto is a coastal city in northwest Portugal.' },
];

let directory = '';
let family: SimFamily;
let tasks: Task[];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-hotpot-'));
  const path = join(directory, 'hotpot.jsonl');
  writeFileSync(path, records.map((record) => JSON.stringify(record)).join('\n'));
  writeFileSync(join(directory, 'hotpot-corpus.jsonl'), corpus.map((document) => JSON.stringify(document)).join('\n'));
  const loaded = await loadHotpotFamily(HotpotFamilySchema.parse({ weight: 1, path }));
  if ('available' in loaded) throw new Error(loaded.reason);
  family = loaded;
  tasks = family.generate({ count: 2, rng: new Rng(1), idPrefix: 'h' });
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const workerWith = (worker: ScenarioInput['worker'] = {}) =>
  createSimWorker({ scenario: ScenarioSchema.parse({ name: 'hotpot', seed: 2, families: {}, worker }), families: [family] });

async function accuracy(agent: string, worker: ReturnType<typeof workerWith>, seeds: number): Promise<number> {
  let correct = 0;
  for (const task of tasks) {
    const params = agent === 'search' ? { topK: 2 } : {};
    const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' };
    for (let seed = 0; seed < seeds; seed++) {
      const run = await executePlan({ task, plan, blocks: createBlockRegistry(), provider: worker, retriever: createBm25Retriever(family.corpus()), seed });
      if (normalizeAnswer(run.finalAnswer ?? '') === normalizeAnswer(task.answer ?? '')) correct++;
    }
  }
  return correct / (tasks.length * seeds);
}

describe('sim worker with the hotpot family', () => {
  it('searches for the question, then for the bridge entity, and answers from the paragraphs', async () => {
    const task = tasks.find((candidate) => candidate.answer === 'Lisbon');
    if (task === undefined) throw new Error('bridge question missing');
    const plan: Plan = { dom: 'low', nodes: [{ id: 'A', agent: 'search', input: '', params: { topK: 1 } }], edges: [], answer: 'A' };
    const flawless = workerWith({ tiers: { 'sim-worker': { skill: 60 } } });
    const run = await executePlan({ task, plan, blocks: createBlockRegistry(), provider: flawless, retriever: createBm25Retriever(family.corpus()), seed: 1 });
    const responses = run.nodes[0]?.calls.map((call) => call.response) ?? [];
    expect(responses[0]).toContain(`<search>${task.question}</search>`);
    expect(responses[1]).toContain('<search>Ana Ruiz</search>');
    expect(run.finalAnswer).toBe('Lisbon');
  });

  it('answers far better with search than from recall at the default skill', async () => {
    const worker = workerWith();
    const recall = await accuracy('cot', worker, 40);
    const search = await accuracy('search', worker, 40);
    expect(search).toBeGreaterThan(recall + 0.3);
  });
});
