import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectEpisodes } from '../collect/index.js';
import { createSimEnvironment, loadScenario } from '../sim/index.js';
import { openStore } from '../store/index.js';

/**
 * In-process collection on the default scenario: base-policy plans executed by the simulated
 * worker and committed to SQLite (prompts not kept), one episode per transaction as always.
 * Reports episodes per second and the database size scaled to 10,000 episodes.
 */
export async function benchSimCollection(episodes = 10_000) {
  const environment = await createSimEnvironment(loadScenario('default'));
  const plansPerTask = 4;
  const tasks = environment.tasks('train', Math.ceil(episodes / plansPerTask));
  const dir = mkdtempSync(join(tmpdir(), 'orchrm-bench-collect-'));
  const dbPath = join(dir, 'bench.db');
  const store = openStore(dbPath);
  try {
    const startedAt = performance.now();
    const summary = await collectEpisodes({
      environment,
      tasks,
      orchestrator: environment.orchestrator('base'),
      store,
      plansPerTask,
      concurrency: 8,
      seed: 1,
    });
    const elapsedS = (performance.now() - startedAt) / 1000;
    store.close();
    const bytes = ['', '-wal'].reduce((sum, suffix) => {
      try {
        return sum + statSync(dbPath + suffix).size;
      } catch {
        return sum;
      }
    }, 0);
    return {
      episodes: summary.episodes,
      seconds: Math.round(elapsedS * 100) / 100,
      episodesPerS: Math.round(summary.episodes / elapsedS),
      callsPerEpisode: Math.round((summary.calls.total / summary.episodes) * 10) / 10,
      dbMbPer10kEpisodes: Math.round((bytes / 1e6 / summary.episodes) * 10_000 * 10) / 10,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
