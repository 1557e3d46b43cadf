import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import { createBlockRegistry } from '../agents/index.js';
import type { Episode } from '../core/episode.js';
import { createChatProvider, type ChatProvider } from '../llm/index.js';
import { createLlmOrchestrator } from '../orchestrator/index.js';
import { createSimEnvironment, generateScenarioTasks, loadScenario, startOpenAiCompatibleServer, type SimEnvironment } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { collectEpisodes, type CollectSummary } from './index.js';

async function collect(environment: SimEnvironment, provider: ChatProvider, db: string): Promise<{ summary: CollectSummary; episodes: Episode[] }> {
  const blocks = createBlockRegistry();
  const store = openStore(db);
  try {
    const summary = await collectEpisodes({
      tasks: generateScenarioTasks(environment.scenario, environment.families, { split: 'train', count: 30 }),
      orchestrator: createLlmOrchestrator({ provider, catalog: blocks, model: 'sim-orchestrator-base', ref: { name: 'sim-orchestrator', checkpoint: 'base' } }),
      provider,
      blocks,
      store,
      plansPerTask: 2,
      concurrency: 8,
      seed: 4,
      retriever: environment.retriever,
      grader: exactMatchGrader,
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
    const clean = await collect(environment, environment.provider, join(dir, 'clean.db'));

    const server = await startOpenAiCompatibleServer({
      provider: environment.provider,
      models: environment.models(),
      faultSeed: 12,
      faults: { rateLimitRate: 0.1, serverErrorRate: 0.1, retryAfterS: 0, hangRate: 0.05, truncateRate: 0.05, dropRate: 0.03 },
    });
    const provider = createChatProvider({
      type: 'openai',
      baseURL: server.url,
      apiKeyEnv: 'ORCHRM_FAULT_KEY',
      models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' },
      // A hung request costs one timeout; 11 straight faults (p = 0.33^11, about 5e-6 a call) do not happen.
      timeoutMs: 2_000,
      maxRetries: 10,
      concurrency: 16,
      structuredOutput: false,
    });
    try {
      const faulty = await collect(environment, provider, join(dir, 'faulty.db'));
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
      provider.close();
      await server.close();
    }
  }, 120_000);
});
