import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import { createBlockRegistry } from '../agents/index.js';
import { collectEpisodes } from '../collect/index.js';
import type { Episode } from '../core/episode.js';
import { createChatProvider, type ChatProvider } from '../llm/index.js';
import { createLlmOrchestrator } from '../orchestrator/index.js';
import { openStore } from '../store/index.js';
import { exactMatchGrader } from '../tasks/index.js';
import { createSimEnvironment, type SimEnvironment } from './environment.js';
import { generateScenarioTasks } from './scenario-tasks.js';
import { loadScenario } from './scenario/load-scenario.js';
import { startOpenAiCompatibleServer } from './server/index.js';

const SEED = 5;

async function collectWith(environment: SimEnvironment, provider: ChatProvider, dbPath: string): Promise<Episode[]> {
  const blocks = createBlockRegistry();
  const store = openStore(dbPath);
  try {
    await collectEpisodes({
      tasks: generateScenarioTasks(environment.scenario, environment.families, { split: 'train', count: 16 }),
      orchestrator: createLlmOrchestrator({
        provider,
        catalog: blocks,
        model: 'sim-orchestrator-base',
        ref: { name: 'sim-orchestrator', checkpoint: 'base' },
      }),
      provider,
      blocks,
      store,
      plansPerTask: 3,
      concurrency: 4,
      seed: SEED,
      retriever: environment.retriever,
      grader: exactMatchGrader,
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
    const inProcess = await collectWith(environment, environment.provider, join(dir, 'in-process.db'));

    const server = await startOpenAiCompatibleServer({ provider: environment.provider, models: environment.models() });
    const remote = createChatProvider({
      type: 'openai',
      baseURL: server.url,
      apiKeyEnv: 'ORCHRM_SIM_KEY',
      models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' },
      timeoutMs: 30_000,
      maxRetries: 2,
      concurrency: 8,
      structuredOutput: false,
    });
    try {
      const overHttp = await collectWith(environment, remote, join(dir, 'over-http.db'));
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
