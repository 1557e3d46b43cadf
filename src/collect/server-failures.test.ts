import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparableEpisode } from '../testing/index.js';
import type { Episode } from '../core/index.js';
import { createRemoteEnvironment, type Environment } from '../environment/index.js';
import { minePairs } from '../pairs/index.js';
import { createSimEnvironment, loadScenario, orchestratorRefOfModel, startOpenAiCompatibleServer, type SimEnvironment } from '../sim/index.js';
import { openStore } from '../store/index.js';
import { collectEpisodes, type CollectResult } from './index.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-server-failures-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function collect(environment: Environment, db: string): Promise<{ summary: CollectResult; episodes: Episode[]; runStatus: string | undefined }> {
  const store = openStore(db);
  try {
    const summary = await collectEpisodes({
      environment,
      tasks: environment.tasks('train', 20),
      orchestrator: environment.orchestrator('sim-orchestrator-base'),
      store,
      plansPerTask: 2,
      concurrency: 8,
      seed: 9,
      sameFingerprint: 'continue',
      stopAfterRepeatedFailures: 0,
    });
    const episodes = [...store.iterateEpisodes({})].sort((a, b) => a.task.id.localeCompare(b.task.id) || a.sampleIndex - b.sampleIndex);
    return { summary, episodes, runStatus: store.getRun(summary.runId)?.status };
  } finally {
    store.close();
  }
}

/** The scenario's models behind an OpenAI-compatible server, with no retries: every injected fault ends its call. */
async function remote(environment: SimEnvironment, faults: Parameters<typeof startOpenAiCompatibleServer>[0]['faults']) {
  const server = await startOpenAiCompatibleServer({ provider: environment.provider, models: environment.models(), faultSeed: 3, ...(faults !== undefined && { faults }) });
  const remoteEnvironment = await createRemoteEnvironment(
    {
      type: 'openai',
      baseURL: server.url,
      apiKeyEnv: 'ORCHRM_SERVER_FAILURE_KEY',
      models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' },
      maxRetries: 0,
      concurrency: 8,
      structuredOutput: false,
    },
    environment,
    { retriever: environment.retriever, orchestratorRef: (model) => orchestratorRefOfModel(model, environment.checkpoints) },
  );
  return {
    environment: remoteEnvironment,
    server,
    close: async () => {
      remoteEnvironment.close();
      await server.close();
    },
  };
}

describe('episodes a server failure ended', () => {
  it('are stored apart as server_error, never mined, redone by a resume on a healthy server into the fault-free data', async () => {
    const environment = await createSimEnvironment(loadScenario('default'));
    const clean = await collect(environment, join(directory, 'clean.db'));
    expect(clean.summary.byStatus.server_error).toBeUndefined();

    const db = join(directory, 'faulty.db');
    const faulty = await remote(environment, { serverErrorRate: 0.08, rateLimitRate: 0.04, retryAfterS: 0, dropRate: 0.03, truncateRate: 0.02 });
    let first;
    try {
      first = await collect(faulty.environment, db);
    } finally {
      await faulty.close();
    }
    const lost = first.summary.byStatus.server_error ?? 0;
    expect(lost).toBeGreaterThan(0);
    // No fault is a plan failure: the fault-free run's runtime errors (none here) are all there is.
    expect(first.summary.byStatus.runtime_error ?? 0).toBe(clean.summary.byStatus.runtime_error ?? 0);
    for (const episode of first.episodes.filter((stored) => stored.status === 'server_error')) {
      expect(episode.grade).toBeUndefined();
      expect(episode.reason).toMatch(/server failure: |orchestrator call failed: |grading failed: /);
    }
    expect(first.runStatus).toBe('failed');

    // Mining leaves them out: no pair has a server failure as winner or loser.
    const mineStore = openStore(db);
    try {
      const mined = minePairs(mineStore, { config: { sources: ['outcome', 'process', 'efficiency'] } });
      expect(mined.serverFailures).toBe(lost);
      const failedIds = new Set(first.episodes.filter((episode) => episode.status === 'server_error').map((episode) => episode.id));
      const pairs = [...mineStore.iteratePairs({ datasetId: mined.datasetId })];
      expect(pairs.length).toBeGreaterThan(0);
      for (const pair of pairs) {
        expect(failedIds.has(pair.winner.episodeId ?? '')).toBe(false);
        expect(failedIds.has(pair.loser.episodeId ?? '')).toBe(false);
      }
    } finally {
      mineStore.close();
    }

    // The same collection on a healthy server continues the run and redoes exactly those samples.
    const healthy = await remote(environment, undefined);
    let second;
    try {
      second = await collect(healthy.environment, db);
    } finally {
      await healthy.close();
    }
    expect(second.summary).toMatchObject({ runId: first.summary.runId, continued: true, skipped: 40 - lost, episodes: 40 });
    expect(second.summary.byStatus.server_error).toBeUndefined();
    expect(second.runStatus).toBe('completed');
    expect(second.episodes.map((episode) => comparableEpisode(episode, { transport: true }))).toEqual(clean.episodes.map((episode) => comparableEpisode(episode, { transport: true })));
  }, 120_000);
});
