import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
