import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import { collectEpisodes } from '../collect/index.js';
import type { Episode } from '../core/episode.js';
import { createRemoteEnvironment, type Environment } from '../environment/index.js';
import { openStore } from '../store/index.js';
import { createSimEnvironment } from './environment.js';
import { orchestratorRefOfModel } from './policy/index.js';
import { loadScenario } from './scenario/load-scenario.js';
import { startOpenAiCompatibleServer } from './server/index.js';

const SEED = 5;

async function collectWith(environment: Environment, dbPath: string): Promise<Episode[]> {
  const store = openStore(dbPath);
  try {
    await collectEpisodes({
      environment,
      tasks: environment.tasks('train', 16),
      orchestrator: environment.orchestrator('sim-orchestrator-base'),
      store,
      plansPerTask: 3,
      concurrency: 4,
      seed: SEED,
    });
    return [...store.iterateEpisodes({})].sort((a, b) => a.task.id.localeCompare(b.task.id) || a.sampleIndex - b.sampleIndex);
  } finally {
    store.close();
  }
}


describe('the simulated environment in-process and over HTTP', () => {
  it('gives the same episodes for the same seed', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-sim-http-'));
    const inProcess = await collectWith(environment, join(dir, 'in-process.db'));

    const server = await startOpenAiCompatibleServer({ provider: environment.provider, models: environment.models() });
    // The same scenario's tasks and documents, its models served over HTTP.
    const remote = await createRemoteEnvironment(
      {
        type: 'openai',
        baseURL: server.url,
        apiKeyEnv: 'ORCHRM_SIM_KEY',
        models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' },
        timeoutMs: 30_000,
        maxRetries: 2,
        concurrency: 8,
        structuredOutput: false,
      },
      environment,
      { retriever: environment.retriever, orchestratorRef: (model) => orchestratorRefOfModel(model, environment.checkpoints) },
    );
    try {
      const overHttp = await collectWith(remote, join(dir, 'over-http.db'));
      expect(inProcess).toHaveLength(48);
      expect(new Set(inProcess.map((episode) => episode.status)).size).toBeGreaterThan(1);
      expect(inProcess.some((episode) => episode.nodes.some((node) => node.agent === 'search'))).toBe(true);
      expect(overHttp.map((episode) => comparableEpisode(episode, { transport: true }))).toEqual(inProcess.map((episode) => comparableEpisode(episode, { transport: true })));
      expect(server.stats.requests.chatCompletions).toBeGreaterThan(100);
    } finally {
      remote.close();
      await server.close();
    }
  }, 60_000);
});
