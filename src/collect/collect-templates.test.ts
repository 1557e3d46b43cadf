import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { minePairs } from '../pairs/index.js';
import { createSimEnvironment, loadScenario, type SimEnvironment } from '../sim/index.js';
import { openStore, type Store } from '../store/index.js';
import { collectEpisodes, runsTemplates } from './collect-episodes.js';
import { CollectStoppedError } from './collect-stopped-error.js';

let directory: string;
let environment: SimEnvironment;
beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-collect-templates-'));
  environment = await createSimEnvironment(loadScenario('default'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const TASKS = 12;
const SHARE = 0.5;

function collect(store: Store, extra: Partial<Parameters<typeof collectEpisodes>[0]> = {}) {
  return collectEpisodes({
    environment,
    tasks: environment.tasks('train', TASKS),
    store,
    plansPerTask: 2,
    seed: 3,
    concurrency: 3,
    templates: { library: environment.templates, share: SHARE },
    ...extra,
  });
}

describe('collect with template plans on a share of the tasks', () => {
  it('runs every template on the chosen tasks as samples after the sampled plans, and counts them apart', async () => {
    const tasks = environment.tasks('train', TASKS);
    const chosen = tasks.filter((task) => runsTemplates(3, task.id, SHARE));
    expect(chosen.length).toBeGreaterThan(0);
    expect(chosen.length).toBeLessThan(TASKS);
    const names = environment.templates.names;
    const store = openStore(join(directory, 'runs.db'));
    try {
      const summary = await collect(store);
      expect(summary.total).toBe(TASKS * 2 + chosen.length * names.length);
      expect(summary.episodes).toBe(summary.total);
      const episodes = [...store.iterateEpisodes({})];
      const templates = episodes.filter((episode) => episode.orchestrator.name === 'template');
      expect(templates).toHaveLength(chosen.length * names.length);
      expect(new Set(templates.map((episode) => episode.task.id))).toEqual(new Set(chosen.map((task) => task.id)));
      for (const episode of templates) {
        const position = episode.sampleIndex - 2;
        expect(episode.orchestrator.checkpoint).toBe(names[position]);
        expect(episode.status).toBe('ok');
      }
      const tokens = (role: 'orchestrator' | 'execution') => templates.reduce((sum, episode) => sum + episode.usage[role].totalTokens, 0);
      expect(summary.templates).toMatchObject({ tasks: chosen.length, episodes: templates.length });
      expect(summary.templates!.tokens.execution.totalTokens).toBe(tokens('execution'));
      // The decompositions bill their writing as orchestrator tokens; the run's total includes them.
      expect(summary.templates!.tokens.orchestrator.totalTokens).toBe(tokens('orchestrator'));
      expect(summary.tokens.orchestrator.totalTokens).toBe(episodes.reduce((sum, episode) => sum + episode.usage.orchestrator.totalTokens, 0));

      // The miners pair template plans with sampled ones like any other plan.
      const mined = minePairs(store, { config: { seed: 1 } });
      const pairs = [...store.iteratePairs({ datasetId: mined.datasetId })];
      const templateTexts = new Set(templates.map((episode) => episode.planText));
      expect(pairs.some((pair) => pair.source === 'outcome' && (templateTexts.has(pair.winner.planText) || templateTexts.has(pair.loser.planText)))).toBe(true);
      expect(pairs.some((pair) => pair.source === 'checkpoint' && templateTexts.has(pair.winner.planText))).toBe(false);

      // The same collection again continues the run (nothing to do); another share is another run.
      const again = await collect(store, { sameFingerprint: 'continue' });
      expect(again).toMatchObject({ continued: true, skipped: summary.total, runId: summary.runId });
      const other = await collect(store, { sameFingerprint: 'continue', templates: { library: environment.templates, share: 0 } });
      expect(other).toMatchObject({ continued: false, total: TASKS * 2 });
      expect(other.templates).toEqual({ tasks: 0, episodes: 0, tokens: expect.any(Object) });
    } finally {
      store.close();
    }
  }, 60_000);

  it('an interrupted run resumes to the same episodes as an uninterrupted one', async () => {
    const whole = openStore(join(directory, 'whole.db'));
    const resumed = openStore(join(directory, 'resumed.db'));
    try {
      await collect(whole);
      const stop = new AbortController();
      let ended = 0;
      const first = collect(resumed, { signal: stop.signal, events: (event) => (event.type === 'episode-end' && ++ended === 20 ? stop.abort() : undefined) });
      await expect(first).rejects.toBeInstanceOf(CollectStoppedError);
      const runId = [...resumed.iterateEpisodes({})][0]!.runId!;
      const summary = await collect(resumed, { resumeRunId: runId });
      expect(summary.skipped).toBeGreaterThanOrEqual(20);
      const key = (store: Store) =>
        [...store.iterateEpisodes({})].map((episode) => `${episode.task.id}#${episode.sampleIndex} ${episode.orchestrator.name}/${episode.orchestrator.checkpoint ?? ''} ${episode.finalAnswer ?? ''}`).sort();
      expect(key(resumed)).toEqual(key(whole));
    } finally {
      whole.close();
      resumed.close();
    }
  }, 60_000);

  it('refuses a share outside [0, 1]', async () => {
    const store = openStore(join(directory, 'runs.db'));
    try {
      await expect(collect(store, { templates: { library: environment.templates, share: 1.5 } })).rejects.toThrow(/must be in \[0, 1\], got 1.5/);
    } finally {
      store.close();
    }
  });

  it('runs only the templates chosen for each task, and a different choice is a different run', async () => {
    const store = openStore(join(directory, 'chosen.db'));
    try {
      const tasks = environment.tasks('train', TASKS);
      const perTask = new Map(tasks.map((task, index) => [task.id, index % 3 === 0 ? [] : [1 + (index % 10), 0]]));
      const first = await collect(store, { templates: { library: environment.templates, share: 1, perTask } });
      const ran = [...store.iterateEpisodes({ runId: first.runId }, { withCalls: false })].filter((episode) => episode.orchestrator.name === 'template');
      const expected = tasks.flatMap((task) => (perTask.get(task.id) ?? []).map((position) => `${task.id} ${environment.templates.names[position]} ${2 + position}`)).sort();
      expect(ran.map((episode) => `${episode.task.id} ${episode.orchestrator.checkpoint} ${episode.sampleIndex}`).sort()).toEqual(expected);
      expect(first.templates).toMatchObject({ tasks: 8, episodes: expected.length });
      const other = await collect(store, { templates: { library: environment.templates, share: 1, perTask: new Map([[tasks[1]!.id, [3]]]) } });
      expect(other.runId).not.toBe(first.runId);
      await expect(collect(store, { templates: { library: environment.templates, share: 1, perTask: new Map([[tasks[0]!.id, [11]]]) } })).rejects.toThrow(/asks for template 11, but the library has 11 \(positions 0 to 10\)/);
    } finally {
      store.close();
    }
  });
});
