import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import { openStore, type Store } from '../store/index.js';
import { collectEpisodes } from './collect-episodes.js';

describe('run and episode ids', () => {
  it('are the same for the same collection into the same store history, and new for a repeat', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const tasks = environment.tasks('train', 5);
    const collect = (store: Store) =>
      collectEpisodes({
        environment,
        tasks,
        orchestrator: environment.orchestrator('base'),
        store,
        plansPerTask: 2,
        seed: 3,
      });
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-run-ids-'));
    const first = openStore(join(dir, 'first.db'));
    const second = openStore(join(dir, 'second.db'));
    const ids = (store: Store, runId: string) => store.listEpisodes({ runId }).map((episode) => episode.id).sort();
    const a = await collect(first);
    const b = await collect(second);
    expect(b.runId).toBe(a.runId);
    expect(ids(second, b.runId)).toEqual(ids(first, a.runId));
    const repeat = await collect(first);
    expect(repeat.runId).not.toBe(a.runId);
    expect(ids(first, repeat.runId)).toHaveLength(10);
    first.close();
    second.close();
  });

  it('continuing, join the run another process creates between looking for it and starting one, never a second run', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const tasks = environment.tasks('train', 3);
    const db = join(mkdtempSync(join(tmpdir(), 'orchrm-run-race-')), 'runs.db');
    const store = openStore(db);
    // The first look for the fingerprint's run finds none; the other process creates it right after.
    let raced: string | undefined;
    const racing = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'getRun') {
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (id: string) => {
          const run = target.getRun(id);
          if (raced === undefined && run === undefined) {
            raced = id;
            target.createRun({ id, kind: 'collect', seed: 3, codeVersion: 'other process', config: {} });
          }
          return run;
        };
      },
    });
    const result = await collectEpisodes({ environment, tasks, orchestrator: environment.orchestrator('base'), store: racing, plansPerTask: 2, seed: 3, sameFingerprint: 'continue' });
    expect(raced).toBeDefined();
    expect(result).toMatchObject({ runId: raced, continued: true });
    store.close();
    const connection = new Database(db, { readonly: true });
    expect(connection.prepare('SELECT id FROM runs').all()).toEqual([{ id: raced }]);
    connection.close();
  });

  it('having created the run, waits for the lease another process took and then only summarises the work it committed', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const tasks = environment.tasks('train', 3);
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-lease-race-'));
    const options = { environment, tasks, orchestrator: environment.orchestrator('base'), plansPerTask: 2, seed: 3, sameFingerprint: 'continue' as const };
    // What the other process commits: the same run (ids derive from the fingerprint), collected elsewhere.
    const elsewhere = openStore(join(dir, 'elsewhere.db'));
    const theirs = await collectEpisodes({ ...options, store: elsewhere });
    const episodes = elsewhere.listEpisodes({ runId: theirs.runId }).map((summary) => elsewhere.getEpisode(summary.id)!);
    elsewhere.close();
    const store = openStore(join(dir, 'shared.db'));
    // This process creates the run; the other, continuing it, holds the lease and commits everything before letting go.
    let waited = false;
    const racing = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'acquireRunLease' && !waited) {
          return () => {
            waited = true;
            for (const episode of episodes) target.insertEpisode(episode);
            return { acquired: false, holder: { pid: 1, host: 'elsewhere', heartbeatAt: new Date().toISOString() } };
          };
        }
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const ours = await collectEpisodes({ ...options, store: racing });
    expect(waited).toBe(true);
    expect(ours).toMatchObject({ runId: theirs.runId, continued: true, episodes: 6, skipped: 6 });
    store.close();
  });
});
