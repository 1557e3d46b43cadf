import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import type { Episode } from '../core/episode.js';
import { createRemoteEnvironment, type Environment } from '../environment/index.js';
import { createSimEnvironment, loadScenario, orchestratorRefOfModel, startOpenAiCompatibleServer } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { collectEpisodes, type CollectSummary } from './index.js';

async function collect(environment: Environment, db: string): Promise<{ summary: CollectSummary; episodes: Episode[] }> {
  const store = openStore(db);
  try {
    const summary = await collectEpisodes({
      environment,
      tasks: environment.tasks('train', 30),
      orchestrator: environment.orchestrator('sim-orchestrator-base'),
      store,
      plansPerTask: 2,
      concurrency: 8,
      seed: 4,
    });
    const episodes = [...store.iterateEpisodes({})].sort((a, b) => a.task.id.localeCompare(b.task.id) || a.sampleIndex - b.sampleIndex);
    return { summary, episodes };
  } finally {
    store.close();
  }
}


describe('collection through provider faults', () => {
  it('completes with the same episodes as a fault-free run, every retry counted', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const dir = mkdtempSync(join(tmpdir(), 'orchrm-faults-'));
    const clean = await collect(environment, join(dir, 'clean.db'));

    const server = await startOpenAiCompatibleServer({
      provider: environment.provider,
      models: environment.models(),
      faultSeed: 12,
      faults: { rateLimitRate: 0.1, serverErrorRate: 0.1, retryAfterS: 0, hangRate: 0.05, truncateRate: 0.05, dropRate: 0.03 },
    });
    // The same scenario's tasks and documents, its models behind the faulty server.
    const faultyEnvironment = await createRemoteEnvironment(
      {
        type: 'openai',
        baseURL: server.url,
        apiKeyEnv: 'ORCHRM_FAULT_KEY',
        models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' },
        // A hung request costs one timeout; 11 straight faults (p = 0.33^11, about 5e-6 a call) do not happen.
        timeoutMs: 2_000,
        maxRetries: 10,
        concurrency: 16,
        structuredOutput: false,
      },
      environment,
      { retriever: environment.retriever, orchestratorRef: (model) => orchestratorRefOfModel(model, environment.checkpoints) },
    );
    try {
      const faulty = await collect(faultyEnvironment, join(dir, 'faulty.db'));
      const injected = Object.values(server.stats.faults).reduce((sum, count) => sum + count, 0);
      expect(injected).toBeGreaterThan(50);
      expect(faulty.summary.calls.failed).toBe(0);
      const storedRetries = faulty.episodes
        .flatMap((episode) => [episode.orchestratorCall, ...episode.nodes.flatMap((node) => node.calls)])
        .reduce((sum, call) => sum + (call ? call.attempts - 1 : 0), 0);
      expect(faulty.summary.calls.retries).toBe(storedRetries);
      // A loaded machine can add a client timeout of its own, never fewer retries than faults.
      expect(storedRetries).toBeGreaterThanOrEqual(injected);
      // Every failed attempt is kept with its cause, next to the call that finally succeeded.
      const causes = faulty.episodes.flatMap((episode) => [episode.orchestratorCall, ...episode.nodes.flatMap((node) => node.calls)]).flatMap((call) => call?.attemptErrors ?? []);
      expect(causes).toHaveLength(storedRetries);
      for (const kind of ['RateLimitError', 'ServerError', 'RequestTimeoutError', 'ConnectionError']) expect(causes.some((cause) => cause.startsWith(kind))).toBe(true);
      expect(faulty.episodes.map((episode) => comparableEpisode(episode, { transport: true }))).toEqual(clean.episodes.map((episode) => comparableEpisode(episode, { transport: true })));
    } finally {
      faultyEnvironment.close();
      await server.close();
    }
  }, 120_000);
});
