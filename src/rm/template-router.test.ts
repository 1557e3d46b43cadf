import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import type { PlanOutcome } from './cost-head.js';
import { loadRewardModel, saveRewardModel } from './model-file.js';
import { readSafetensors, writeSafetensors } from './safetensors.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { MIN_ROUTER_EPISODES, ROUTER_L2_CANDIDATES, TemplateRouter, TemplateRouterDataSchema, trainTemplateRouter } from './template-router.js';
import { trainRewardModel } from './train-reward-model.js';

/** Which template succeeds on which structure of a default arithmetic task (docs/sim.md §4.7), as a world with no noise would grade it. */
const WINNER = { note: 'reflexion-3', split: 'steps-sc', chain: 'sc-5' } as const;
const TEMPLATES = ['reflexion-3', 'steps-sc', 'sc-5'];

async function arithTasks() {
  const environment = await createSimEnvironment(loadScenario('default'));
  const arith = (split: 'train' | 'test', count: number) => environment.tasks(split, count).filter((task) => task.suite === 'arith');
  return { train: arith('train', 240), test: arith('test', 120) };
}

/** Every template on every task, correct when it is the task's structure's winner (the router never reads the structure: only the text). */
function outcomesOf(tasks: readonly { id: string; question: string; suite: string; metadata?: Record<string, unknown> }[], split: PlanOutcome['split']): PlanOutcome[] {
  return tasks.flatMap((task) => {
    const structure = (task.metadata?.axes as { structure: keyof typeof WINNER }).structure;
    return TEMPLATES.map((template) => ({ taskId: task.id, question: task.question, suite: task.suite, planText: template, executionTokens: 100, template, correct: WINNER[structure] === template, split }));
  });
}

describe('the template router', () => {
  it("learns from template outcomes alone which template suits which structure, reading the task's text", async () => {
    const { train, test } = await arithTasks();
    const cut = Math.floor(train.length * 0.8);
    const fitted = trainTemplateRouter([...outcomesOf(train.slice(0, cut), 'train'), ...outcomesOf(train.slice(cut), 'validation')]);
    expect(fitted).toBeDefined();
    const { router, report } = fitted!;
    expect(router.names.sort()).toEqual([...TEMPLATES].sort());
    expect(report.validationLoss.map((entry) => entry.l2)).toEqual([...ROUTER_L2_CANDIDATES]);
    expect(report.l2).toBe(report.validationLoss.reduce((best, entry) => (entry.loss < best.loss ? entry : best)).l2);
    let right = 0;
    for (const task of test) {
      const routes = router.probabilities(task.question, task.suite, TEMPLATES) as number[];
      const top = TEMPLATES[routes.indexOf(Math.max(...routes))];
      if (top === WINNER[(task.metadata?.axes as { structure: keyof typeof WINNER }).structure]) right += 1;
    }
    // The quantity graph reads the structure from the text on every default task (docs/rm.md), so the router is right on all of them.
    expect(right).toBe(test.length);
    expect(router.probabilities(test[0]!.question, test[0]!.suite, ['debate-3x3'])).toEqual([undefined]);
  });

  it("reads a name's popularity for its kind: a person named as often as a city is famous, the city is not", () => {
    const letters = (index: number) => [...index.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join('');
    const cities = ['Ashford', 'Brampton', 'Carlow', 'Dunmore', 'Elsworth'];
    const famous = ['Ada Quill', 'Bea Rook', 'Cal Stone', 'Dan Vale', 'Eve Wren'];
    const ordinary = Array.from({ length: 60 }, (_, index) => `Person${letters(index + 30)}`);
    const asked = (relation: string, name: string) => [`Who is the ${relation} of ${name}?`, `Where was the ${relation} of ${name} born?`, `Which company employs the ${relation} of ${name}?`, `Who mentored the ${relation} of ${name}?`];
    // Every city and every famous person in four texts, each ordinary person in one (a name seen once counts 0): recall works on famous people only.
    const tasks = [
      ...cities.flatMap((city) => asked('mayor', city).map((question) => ({ question, recall: false }))),
      ...famous.flatMap((person) => asked('mentor', person).map((question) => ({ question, recall: true }))),
      ...ordinary.map((person) => ({ question: asked('mentor', person)[1]!, recall: false })),
    ];
    const outcomes: PlanOutcome[] = tasks.flatMap(({ question, recall }, index) =>
      ['recall', 'search'].map((template) => ({ taskId: `t${index}`, question, suite: 'mh', planText: template, executionTokens: 100, template, correct: (template === 'recall') === recall, split: 'train' as const })),
    );
    const { router } = trainTemplateRouter(outcomes)!;
    expect(router.data.relations).toEqual([
      { relation: 'mentor', meanMentions: 1 },
      { relation: 'mayor', meanMentions: 4 },
    ]);
    const famousTask = 'Who founded the employer of the mentor of Ada Quill?';
    const cityTask = 'Who founded the employer of the mayor of Ashford?';
    const [famousRecall, famousSearch] = router.probabilities(famousTask, 'mh', ['recall', 'search']) as number[];
    const [cityRecall, citySearch] = router.probabilities(cityTask, 'mh', ['recall', 'search']) as number[];
    expect(famousRecall).toBeGreaterThan(famousSearch!);
    expect(citySearch).toBeGreaterThan(cityRecall!);
    // A router written before `relations` reads the plain bucket only, where both names are mentioned four times: it cannot tell them apart.
    const { relations: _relations, ...older } = router.data;
    const plain = new TemplateRouter(TemplateRouterDataSchema.parse(older));
    expect(plain.probabilities(famousTask, 'mh', ['recall', 'search'])).toEqual(plain.probabilities(cityTask, 'mh', ['recall', 'search']));
    expect(TemplateRouterDataSchema.safeParse({ ...router.data, relations: [...router.data.relations!, router.data.relations![0]] }).success).toBe(false);
    // Texts of tasks it was given and did not run count too (a budget-cut collection), test-split ones never.
    const given = [...asked('mayor', 'Gorham'), ...asked('mayor', 'Gorham').map((question) => `${question} `)];
    const withTexts = trainTemplateRouter(outcomes, [...given.map((question) => ({ question, split: 'train' as const })), { question: 'Who is the mayor of Hollin?', split: 'test' }, { question: 'Where was the mayor of Hollin born?', split: 'test' }])!.router;
    const counted = new Map(withTexts.data.popularity.names.map((name, index) => [name, withTexts.data.popularity.counts[index]]));
    expect(counted.get('Gorham')).toBe(8);
    expect(counted.has('Hollin')).toBe(false);
    expect(router.data.popularity.names).not.toContain('Gorham');
  });

  it('keeps suites apart: the same text in two suites routes to each suite\'s own winner', () => {
    const outcomes: PlanOutcome[] = [];
    for (let index = 0; index < 40; index++) {
      for (const suite of ['left', 'right']) {
        for (const template of ['a', 'b']) outcomes.push({ taskId: `${suite}-${index}`, question: `Question ${index}?`, suite, planText: template, executionTokens: 1, template, correct: (suite === 'left') === (template === 'a'), split: 'train' });
      }
    }
    const { router } = trainTemplateRouter(outcomes)!;
    const [leftA, leftB] = router.probabilities('Question 99?', 'left', ['a', 'b']) as number[];
    const [rightA, rightB] = router.probabilities('Question 99?', 'right', ['a', 'b']) as number[];
    expect(leftA).toBeGreaterThan(0.8);
    expect(leftB).toBeLessThan(0.2);
    expect(rightB).toBeGreaterThan(0.8);
    expect(rightA).toBeLessThan(0.2);
    // A suite it has seen no task of gets no probability at all, rather than every template alike.
    expect(router.suites.sort()).toEqual(['left', 'right']);
    expect(router.probabilities('Question 99?', 'elsewhere', ['a', 'b'])).toEqual([undefined, undefined]);
  });

  it('needs two templates with enough graded train episodes, never reads a grade that is absent, and never reads the test split', async () => {
    const { train } = await arithTasks();
    const outcomes = outcomesOf(train, 'train');
    // Label-free: no grade on any outcome, no router.
    expect(trainTemplateRouter(outcomes.map(({ correct: _correct, ...rest }) => rest))).toBeUndefined();
    // Only one template with enough episodes.
    const firstTasks = new Set(train.slice(0, MIN_ROUTER_EPISODES - 1).map((task) => task.id));
    const few = outcomes.filter((outcome) => outcome.template === 'sc-5' || (outcome.template === 'steps-sc' && firstTasks.has(outcome.taskId)));
    expect(trainTemplateRouter(few)).toBeUndefined();
    // Test-split outcomes with the opposite grades change nothing.
    const flipped = outcomesOf(train.slice(0, 60), 'test').map((outcome) => ({ ...outcome, correct: !outcome.correct }));
    expect(trainTemplateRouter([...outcomes, ...flipped])!.router.data).toEqual(trainTemplateRouter(outcomes)!.router.data);
  });

  it('keeps a record of the graded template episodes it was fitted on, and chooses from it the fixed plan per suite a user would deploy', () => {
    const outcomes: PlanOutcome[] = [];
    // On suite left, template b wins 30 of 40 train tasks and a 20; on right, a and b tie at 20 and c wins 10; validation counts too.
    for (let index = 0; index < 40; index++) {
      const split = index < 32 ? 'train' : 'validation';
      // Template c costs 300 tokens on every task; a and b cost their task's index (mean 19.5 over 0-39).
      const add = (suite: string, template: string, correct: boolean) => outcomes.push({ taskId: `${suite}-${index}`, question: `Q${index}?`, suite, planText: template, executionTokens: template === 'c' ? 300 : index, template, correct, split });
      add('left', 'a', index < 20);
      add('left', 'b', index < 30);
      add('right', 'a', index % 2 === 0);
      add('right', 'b', index % 2 === 1);
      add('right', 'c', index < 10);
    }
    // Test-split outcomes never enter the record.
    outcomes.push({ taskId: 'test-0', question: 'Q?', suite: 'left', planText: 'a', executionTokens: 1, template: 'a', correct: true, split: 'test' });
    const { router } = trainTemplateRouter(outcomes)!;
    const record = new Map(router.data.record!.map((entry) => [`${entry.suite}/${entry.template}`, [entry.correct, entry.episodes]]));
    expect(record.get('left/a')).toEqual([20, 40]);
    expect(record.get('left/b')).toEqual([30, 40]);
    expect(record.get('right/c')).toEqual([10, 40]);
    expect(router.bestTemplatesBySuite(['a', 'b', 'c'])).toEqual({ left: 'b', right: 'a' });
    // A tie goes to the first of the names asked about; a name it has no record of is never chosen.
    expect(router.bestTemplatesBySuite(['b', 'a'])).toEqual({ left: 'b', right: 'b' });
    expect(router.bestTemplatesBySuite(['c', 'z'])).toEqual({ right: 'c' });
    // The record prices each template on each suite by its mean execution tokens (no test-split episode counted).
    expect(router.meanExecutionTokens('left', ['a', 'b', 'c'])).toEqual([19.5, 19.5, undefined]);
    expect(router.meanExecutionTokens('right', ['c', 'z'])).toEqual([300, undefined]);
    expect(router.meanExecutionTokens('elsewhere', ['a'])).toEqual([undefined]);
    // A router written before records carried tokens prices nothing, and one written before the record chooses nothing.
    const { executionTokens: _tokens, ...untokened } = router.data.record![0]!;
    expect(new TemplateRouter({ ...router.data, record: [untokened] }).meanExecutionTokens(untokened.suite, [untokened.template])).toEqual([undefined]);
    expect(new TemplateRouter({ ...router.data, record: undefined }).bestTemplatesBySuite(['a', 'b'])).toBeUndefined();
    expect(TemplateRouterDataSchema.safeParse({ ...router.data, record: [{ suite: 'left', template: 'a', episodes: 2, correct: 3 }] }).success).toBe(false);
  });

  it("prices each template on the task by its size, where the suite's mean would price every task alike", async () => {
    const { train, test } = await arithTasks();
    // Template reflexion-3 spends 3,000 tokens per step of the asked quantity, sc-5 a flat 10,000: reflexion-3 is the cheaper only on shallow tasks.
    const depthOf = (task: { metadata?: Record<string, unknown> }) => (task.metadata?.axes as { depth: number }).depth;
    const tokensOf = (template: string, task: { metadata?: Record<string, unknown> }) => (template === 'reflexion-3' ? 3000 * depthOf(task) : template === 'sc-5' ? 10000 : 500);
    const priced = (tasks: typeof train, split: PlanOutcome['split']) => outcomesOf(tasks, split).map((outcome) => ({ ...outcome, executionTokens: tokensOf(outcome.template!, tasks.find((task) => task.id === outcome.taskId)!) }));
    const { router } = trainTemplateRouter(priced(train, 'train'))!;
    const shallow = test.find((task) => depthOf(task) === 2)!;
    const deep = test.find((task) => depthOf(task) === 6)!;
    const [shallowReflexion, shallowSc] = router.executionTokens(shallow.question, 'arith', ['reflexion-3', 'sc-5']) as [number, number];
    const [deepReflexion, deepSc] = router.executionTokens(deep.question, 'arith', ['reflexion-3', 'sc-5']) as [number, number];
    // Within 15% of what each template spends there; the suite's mean prices reflexion-3 the same on both.
    expect(Math.abs(shallowReflexion - 6000) / 6000).toBeLessThan(0.15);
    expect(Math.abs(deepReflexion - 18000) / 18000).toBeLessThan(0.15);
    expect(Math.abs(shallowSc - 10000) / 10000).toBeLessThan(0.05);
    expect(Math.abs(deepSc - 10000) / 10000).toBeLessThan(0.05);
    expect(shallowReflexion).toBeLessThan(shallowSc);
    expect(deepReflexion).toBeGreaterThan(deepSc);
    const [meanReflexion] = router.meanExecutionTokens('arith', ['reflexion-3']) as [number];
    expect(shallowReflexion).toBeLessThan(meanReflexion);
    expect(deepReflexion).toBeGreaterThan(meanReflexion);
    // A template the router does not price, a router written before it priced per task (the suite's mean), and an unseen suite.
    expect(router.executionTokens(deep.question, 'arith', ['debate-3x3'])).toEqual([undefined]);
    const { costs: _costs, ...older } = router.data;
    expect(new TemplateRouter(older).executionTokens(deep.question, 'arith', ['reflexion-3'])).toEqual([meanReflexion]);
    expect(router.executionTokens(deep.question, 'elsewhere', ['reflexion-3'])).toEqual([undefined]);
    // The file's cost fit is checked like its weights.
    const costs = router.data.costs!;
    expect(TemplateRouterDataSchema.safeParse({ ...router.data, costs: { ...costs, templates: costs.templates.map((entry) => ({ ...entry, weights: entry.weights.slice(1) })) } }).success).toBe(false);
    expect(TemplateRouterDataSchema.safeParse({ ...router.data, costs: { ...costs, facts: [...costs.facts, costs.facts[0]!] } }).success).toBe(false);
  });

  it('is stored in the model file, loads to the same probabilities, and a file whose router is malformed is refused', async () => {
    const { train, test } = await arithTasks();
    const pairs = syntheticPairs({ pairs: 60, seed: 3 });
    const { model } = await trainRewardModel(pairs, { maxEpochs: 2, seed: 1 }, { planOutcomes: outcomesOf(train, 'train') });
    expect(model.routedTemplates.length).toBe(3);
    const directory = mkdtempSync(join(tmpdir(), 'orchrm-router-'));
    const path = join(directory, 'rm.safetensors');
    await saveRewardModel(model, path);
    const loaded = await loadRewardModel(path);
    const question = test[0]!.question;
    expect(loaded.routeTemplates(question, 'arith', TEMPLATES)).toEqual(model.routeTemplates(question, 'arith', TEMPLATES));
    expect(loaded.routeTemplates(question, 'arith', TEMPLATES).every((probability) => probability !== undefined)).toBe(true);

    // Without the router, the same model scores the same and routes nothing.
    const { model: plain } = await trainRewardModel(pairs, { maxEpochs: 2, seed: 1 }, { planOutcomes: outcomesOf(train, 'train'), templateRouter: false });
    expect(plain.routedTemplates).toEqual([]);
    expect(await plain.score(question, ['x'])).toEqual(await model.score(question, ['x']));

    const file = readSafetensors(readFileSync(path));
    const rewrite = (router: unknown) => {
      const bytes = writeSafetensors([...file.tensors], { ...file.metadata, template_router: JSON.stringify(router) });
      writeFileSync(join(directory, 'edited.safetensors'), bytes);
      return loadRewardModel(join(directory, 'edited.safetensors'));
    };
    const data = JSON.parse(file.metadata.template_router!);
    await expect(rewrite({ ...data, templates: data.templates.map((entry: { weights: number[] }) => ({ ...entry, weights: entry.weights.slice(1) })) })).rejects.toThrow(/template_router metadata this orchrm does not understand.*weights for .* facts/);
    await expect(rewrite({ ...data, facts: Array.from({ length: 5000 }, (_, index) => `fact-${index}`) })).rejects.toThrow(/template_router metadata this orchrm does not understand/);
    await expect(rewrite({ ...data, version: 2 })).rejects.toThrow(/template_router metadata this orchrm does not understand/);
    expect((await rewrite(data)).routedTemplates.length).toBe(3);
    model.close();
    loaded.close();
    plain.close();
  });
});
