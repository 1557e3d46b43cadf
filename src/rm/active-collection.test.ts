import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveSeed } from '../core/index.js';
import { createRemoteEnvironment, type Environment } from '../environment/index.js';
import { openStore } from '../store/index.js';
import { createSimEnvironment, loadScenario, orchestratorRefOfModel, startOpenAiCompatibleServer } from '../sim/index.js';
import { minePairs } from '../pairs/index.js';
import { collectActively, TEMPLATE_CHOICE_ENCODER, type ActiveCollectOptions } from './active-collection.js';
import type { PlanOutcome } from './cost-head.js';
import { chooseTemplatesByRouter } from './router-template-choice.js';
import { loadTrainingPairs } from './eval/index.js';
import { trainRewardModel } from './train-reward-model.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-active-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const environment = await createSimEnvironment(loadScenario('default'));

const settings = { rounds: 2, firstRoundPlans: 4, candidatesPerTask: 6, plansPerTask: 2, concurrency: 4, seed: 7, training: { maxEpochs: 3, ensembleSize: 3 } } as const;

function run(dbName: string, over: Environment = environment, extra: Partial<ActiveCollectOptions> = {}) {
  const store = openStore(join(directory, dbName));
  const options: ActiveCollectOptions = { environment: over, tasks: over.tasks('train', 40), orchestrator: over.orchestrator(over === environment ? 'base' : 'sim-orchestrator-base'), store, ...settings, ...extra };
  return { store, rounds: collectActively(options) };
}

const episodesOf = (store: ReturnType<typeof openStore>) =>
  [...store.iterateEpisodes({}, { withCalls: false })].map((episode) => ({ task: episode.task.id, sample: episode.sampleIndex, plan: episode.planText, orchestrator: episode.usage.orchestrator.totalTokens })).sort((a, b) => a.task.localeCompare(b.task) || a.sample - b.sample);

describe('collectActively', () => {
  it('collects round 1 passively, then executes the chosen plans of each later task and bills every candidate written', async () => {
    const { store, rounds } = run('active.db');
    const result = await rounds;
    expect(result.map((round) => [round.round, round.tasks, round.summary.episodes])).toEqual([
      [1, 20, 80],
      [2, 20, 40],
    ]);
    const second = [...store.iterateEpisodes({ runId: result[1]!.runId }, { withCalls: false })];
    // Two distinct plans per task, from the real orchestrator's name.
    const byTask = new Map<string, number>();
    for (const episode of second) {
      byTask.set(episode.task.id, (byTask.get(episode.task.id) ?? 0) + 1);
      expect(episode.orchestrator.name).toBe('sim-orchestrator');
    }
    expect([...byTask.values()]).toEqual(Array.from({ length: 20 }, () => 2));
    // Every candidate written, executed or not, is in the store's tokens: per task, the writing of all six.
    expect(result[1]!.unexecutedWritingTokens).toBeGreaterThan(0);
    const orchestrator = environment.orchestrator('base');
    const roundSeed = deriveSeed(settings.seed, 'active-round:2');
    let written = 0;
    for (const taskId of byTask.keys()) {
      const task = second.find((episode) => episode.task.id === taskId)!.task;
      for (let index = 0; index < settings.candidatesPerTask; index++) {
        written += (await orchestrator.writePlan(task, { sampleIndex: index, seed: deriveSeed(roundSeed, `${taskId}#candidate:${index}`) })).call?.usage.totalTokens ?? 0;
      }
    }
    const orchestratorTokens = second.reduce((sum, episode) => sum + episode.usage.orchestrator.totalTokens, 0);
    expect(orchestratorTokens).toBe(written);
    expect(result[1]!.summary.tokens.orchestrator.totalTokens).toBe(written);
    store.close();
  }, 240_000);

  it('executes the chosen templates beside the plans: a seeded draw in round 1, the round model\'s first choice later', async () => {
    const templates = { library: environment.templates, perTask: 1 };
    const { store, rounds } = run('templates.db', environment, { templates });
    const result = await rounds;
    const names = environment.templates.names;
    for (const [index, round] of result.entries()) {
      const episodes = [...store.iterateEpisodes({ runId: round.runId }, { withCalls: false })];
      const templateEpisodes = episodes.filter((episode) => episode.orchestrator.name === 'template');
      // One template per task, recorded under its own name at the sample index after the plans.
      expect(templateEpisodes).toHaveLength(20);
      const plans = index === 0 ? settings.firstRoundPlans : settings.plansPerTask;
      for (const episode of templateEpisodes) expect(episode.sampleIndex).toBe(plans + names.indexOf(episode.orchestrator.checkpoint!));
      expect(episodes.length - templateEpisodes.length).toBe(20 * plans);
    }
    // Round 2 runs the template the model trained on round 1 scores highest on each task.
    const pairs = loadTrainingPairs(store, minePairs(store, { config: { seed: settings.seed }, filter: { runId: result[0]!.runId } }).datasetId);
    const { model } = await trainRewardModel(pairs, { tune: false, ensembleSize: 3, seed: settings.seed, maxEpochs: 3, encoder: TEMPLATE_CHOICE_ENCODER });
    const second = [...store.iterateEpisodes({ runId: result[1]!.runId }, { withCalls: false })].filter((episode) => episode.orchestrator.name === 'template');
    for (const episode of second) {
      const plans = await environment.templates.plansFor(episode.task);
      const scores = await model.score(episode.task.question, plans.map((plan) => plan.planText));
      const best = scores.indexOf(Math.max(...scores));
      expect(episode.orchestrator.checkpoint).toBe(plans[best]!.name);
    }
    model.close();
    // The same collection again continues it: nothing is added.
    const before = episodesOf(store);
    await collectActively({ environment, tasks: environment.tasks('train', 40), orchestrator: environment.orchestrator('base'), store, ...settings, templates });
    expect(episodesOf(store)).toEqual(before);
    store.close();
  }, 240_000);

  describe('with the template router choosing the templates', () => {
    const routerSettings = { rounds: 2, firstRoundPlans: 1, plansPerTask: 0, concurrency: 4, seed: 7, templates: { library: environment.templates, perTask: 3, choice: 'router' as const } };
    const collect = (dbName: string, extra: Partial<ActiveCollectOptions> = {}) => {
      const store = openStore(join(directory, dbName));
      return { store, rounds: collectActively({ environment, tasks: environment.tasks('train', 40), orchestrator: environment.orchestrator('base'), store, ...routerSettings, ...extra }) };
    };
    const tokensOf = (store: ReturnType<typeof openStore>, runId: string) =>
      [...store.iterateEpisodes({ runId }, { withCalls: false })].reduce((sum, episode) => sum + episode.usage.orchestrator.totalTokens + episode.usage.execution.totalTokens + episode.usage.verification.totalTokens, 0);
    /** Per task of a run, its template positions in the library, ascending. */
    const templatesByTask = (store: ReturnType<typeof openStore>, runId: string) => {
      const byTask = new Map<string, number[]>();
      for (const episode of store.iterateEpisodes({ runId, orchestrator: 'template' }, { withCalls: false })) {
        byTask.set(episode.task.id, [...(byTask.get(episode.task.id) ?? []), environment.templates.names.indexOf(episode.orchestrator.checkpoint!)].sort((a, b) => a - b));
      }
      return byTask;
    };

    it('runs every template in round 1, then only the ones the router may rank first, and no sampled plan', async () => {
      const { store, rounds } = collect('router.db');
      const result = await rounds;
      const names = environment.templates.names;
      const [first, second] = result.map((round) => [...store.iterateEpisodes({ runId: round.runId }, { withCalls: false })]);
      expect(first!.filter((episode) => episode.orchestrator.name === 'template')).toHaveLength(20 * names.length);
      expect(first!.filter((episode) => episode.orchestrator.name !== 'template')).toHaveLength(20);
      expect(second!.every((episode) => episode.orchestrator.name === 'template')).toBe(true);
      // The templates of round 2 are the router's choice over round 1's graded template episodes, one to three per task.
      const outcomes: PlanOutcome[] = first!
        .filter((episode) => episode.orchestrator.name === 'template')
        .map((episode) => ({ taskId: episode.task.id, question: episode.task.question, suite: episode.task.suite, planText: episode.planText, template: episode.orchestrator.checkpoint!, executionTokens: episode.usage.execution.totalTokens, correct: episode.grade!.correct, split: 'train' }));
      const roundTasks = environment.tasks('train', 40).slice(20);
      const expected = chooseTemplatesByRouter(outcomes, roundTasks, { names, perTask: 3, seed: deriveSeed(routerSettings.seed, 'active-round:2') }).chosen;
      const chosen = templatesByTask(store, result[1]!.runId);
      expect(chosen).toEqual(expected);
      expect([...chosen.values()].every((positions) => positions.length >= 1 && positions.length <= 3)).toBe(true);
      // It spends where the router is unsure: fewer than the three allowed on some tasks.
      expect(second!.length).toBeLessThan(20 * 3);
      store.close();
    }, 240_000);

    it('cuts the later rounds to the tasks a budget still affords', async () => {
      const { store: whole, rounds } = collect('router-unbudgeted.db');
      const full = await rounds;
      const firstTokens = tokensOf(whole, full[0]!.runId);
      const secondTokens = tokensOf(whole, full[1]!.runId);
      const wholeChoice = templatesByTask(whole, full[1]!.runId);
      whole.close();
      // Round 1 alone spends the budget: no later round; the texts of the tasks it never ran are kept (the router counts names in them).
      const spent = collect('router-spent.db', { budget: firstTokens + 1 });
      expect((await spent.rounds).map((round) => round.round)).toEqual([1]);
      expect([...spent.store.iterateTaskTexts()].map((task) => task.id)).toEqual(environment.tasks('train', 40).map((task) => task.id));
      expect(new Set([...spent.store.iterateEpisodes({}, { withCalls: false })].map((episode) => episode.task.id)).size).toBe(20);
      spent.store.close();
      // Half of round 2 left: a prefix of its tasks, with the same templates as unbudgeted.
      const half = collect('router-half.db', { budget: firstTokens + secondTokens / 2 });
      const cut = await half.rounds;
      expect(cut[1]!.tasks).toBeGreaterThan(0);
      expect(cut[1]!.tasks).toBeLessThan(20);
      const prefix = environment.tasks('train', 40).slice(20, 20 + cut[1]!.tasks).map((task) => task.id);
      expect(templatesByTask(half.store, cut[1]!.runId)).toEqual(new Map(prefix.map((taskId) => [taskId, wholeChoice.get(taskId)!])));
      half.store.close();
    }, 240_000);

    it('resumes after a stop in round 2 and ends with what an uninterrupted run collects', async () => {
      const { store: whole, rounds } = collect('router-whole.db');
      await rounds;
      const stop = new AbortController();
      let firstRoundDone = false;
      let secondRound = 0;
      const killed = collect('router-killed.db', {
        signal: stop.signal,
        events: (event) => {
          if (event.type === 'active-round-end') firstRoundDone = true;
          if (event.type === 'episode-end' && firstRoundDone && ++secondRound === 5) stop.abort();
        },
      });
      await expect(killed.rounds).rejects.toThrow(/interrupted/);
      const partial = episodesOf(killed.store).length;
      expect(partial).toBeGreaterThan(20 * 12);
      expect(partial).toBeLessThan(episodesOf(whole).length);
      killed.store.close();
      const resumed = collect('router-killed.db');
      await resumed.rounds;
      expect(episodesOf(resumed.store)).toEqual(episodesOf(whole));
      for (const store of [whole, resumed.store]) store.close();
    }, 240_000);

    it('refuses sampled plans without a pair unless the router chooses templates alone', async () => {
      const store = openStore(join(directory, 'router-refused.db'));
      const options: ActiveCollectOptions = { environment, tasks: environment.tasks('train', 40), store, ...routerSettings, templates: { library: environment.templates, perTask: 3 } };
      await expect(collectActively(options)).rejects.toThrow(/at least 2 plans per task \(a pair\)/);
      await expect(collectActively({ ...options, templates: { ...options.templates!, choice: 'router' }, plansPerTask: 1 })).rejects.toThrow(/at least 2 plans per task/);
      store.close();
    });
  });

  it('refuses a number of templates per task the library cannot give', async () => {
    const store = openStore(join(directory, 'refused.db'));
    const options: ActiveCollectOptions = { environment, tasks: environment.tasks('train', 40), store, ...settings, templates: { library: environment.templates, perTask: environment.templates.names.length + 1 } };
    await expect(collectActively(options)).rejects.toThrow(/templates per task must be a whole number from 1 to the library's 11/);
    store.close();
  });

  it.each([
    ['', {}],
    [' with templates', { templates: { library: environment.templates, perTask: 2 } }],
  ] as const)('resumes after a stop in round 2 and ends with what an uninterrupted run collects, over HTTP%s', async (label, extra: Partial<ActiveCollectOptions>) => {
    const name = label === '' ? '' : '-templates';
    const server = await startOpenAiCompatibleServer({ provider: environment.provider, models: environment.models() });
    try {
      const remote = await createRemoteEnvironment(
        { type: 'openai', baseURL: server.url, apiKeyEnv: 'ORCHRM_SIM_KEY', models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' }, timeoutMs: 30_000, maxRetries: 2, concurrency: 4, structuredOutput: false },
        environment,
        { retriever: environment.retriever, orchestratorRef: (model) => orchestratorRefOfModel(model, environment.checkpoints) },
      );
      const whole = run(`whole${name}.db`, remote, extra);
      await whole.rounds;
      const stop = new AbortController();
      let firstRoundDone = false;
      let secondRound = 0;
      const killed = run(`killed${name}.db`, remote, {
        ...extra,
        signal: stop.signal,
        events: (event) => {
          if (event.type === 'active-round-end') firstRoundDone = true;
          if (event.type === 'episode-end' && firstRoundDone && ++secondRound === 5) stop.abort();
        },
      });
      await expect(killed.rounds).rejects.toThrow(/interrupted/);
      // Round 1 is complete (20 tasks x 4 plans, and 2 templates each with templates), round 2 is not.
      const firstRound = label === '' ? 80 : 120;
      const partial = episodesOf(killed.store).length;
      expect(partial).toBeGreaterThan(firstRound);
      expect(partial).toBeLessThan(firstRound + (label === '' ? 40 : 80));
      killed.store.close();
      const resumed = run(`killed${name}.db`, remote, extra);
      await resumed.rounds;
      expect(episodesOf(resumed.store)).toEqual(episodesOf(whole.store));
      for (const handle of [whole, resumed]) handle.store.close();
    } finally {
      await server.close();
    }
  }, 480_000);
});
