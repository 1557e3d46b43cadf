import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimEnvironment, loadScenario, startOpenAiCompatibleServer, type SimEnvironment } from '../../sim/index.js';
import { openStore } from '../../store/index.js';
import { runCommand } from '../test-fixtures/run-command.js';
import { registerBonCommand } from './bon.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-bon-resume-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let environment: SimEnvironment;
beforeAll(async () => {
  environment = await createSimEnvironment(loadScenario('arith'));
});

/** The provider file every run uses (the same path, so the runs are one experiment), pointed at `url`; a call fails after 3 attempts. */
function pointProviderAt(url: string): string {
  const path = join(directory, 'provider.json');
  writeFileSync(path, JSON.stringify({ type: 'openai', baseURL: url, apiKeyEnv: 'ORCHRM_BON_KEY', models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' }, maxRetries: 2, concurrency: 4, structuredOutput: false }));
  return path;
}

async function bonAgainst(faults: Parameters<typeof startOpenAiCompatibleServer>[0]['faults'] | undefined, db: string) {
  const server = await startOpenAiCompatibleServer({ provider: environment.provider, models: environment.models(), faultSeed: 5, ...(faults !== undefined && { faults }) });
  try {
    const provider = pointProviderAt(server.url);
    return await runCommand(registerBonCommand, ['bon', '--scenario', 'arith', '--provider', provider, '--count', '8', '--n', '2', '--strategies', 'single,majority,oracle', '--no-cache', '--stop-after-failures', '0', '--seed', '4', '--db', db, '--json']);
  } finally {
    await server.close();
  }
}

describe('orchrm bon through server failures', () => {
  it('keeps the completed tasks when requests fail after their retries (exit 1), and the same command on a healthy server finishes the run as a fault-free one', async () => {
    const reference = await bonAgainst(undefined, join(directory, 'reference.db'));
    expect(reference.exitCode, reference.stderr).toBeUndefined();

    const db = join(directory, 'faulty.db');
    // Requests run 4 at a time, so which ones the seeded faults hit varies from run to run: at 0.6
    // a call fails all 3 attempts with probability 0.22, and some task of 8 fails (exit 1) whatever the order.
    const first = await bonAgainst({ serverErrorRate: 0.6, retryAfterS: 0 }, db);
    expect(first.exitCode).toBe(1);
    const failedLine = /bon run (bon_\w+): (\d+) of 8 tasks failed after their retries; the first error: .*answered 500.*\n {2}the (\d+) completed tasks are kept in .*; once the server is healthy, run the same command again/.exec(first.stderr);
    expect(failedLine, first.stderr).not.toBeNull();
    const kept = Number(failedLine![3]);
    expect(kept + Number(failedLine![2])).toBe(8);
    const store = openStore(db, { readonly: true });
    expect(store.listResults('bon-task').filter((result) => result.runId === failedLine![1])).toHaveLength(kept);
    expect(store.getRun(failedLine![1]!)?.status).toBe('failed');
    store.close();

    const second = await bonAgainst(undefined, db);
    expect(second.exitCode, second.stderr).toBeUndefined();
    expect(second.stderr).toContain(`continued bon run ${failedLine![1]}: ${kept} of 8 tasks were committed earlier`);
    expect(JSON.parse(second.stdout)).toEqual(JSON.parse(reference.stdout));
    const after = openStore(db, { readonly: true });
    expect(after.getRun(failedLine![1]!)?.status).toBe('completed');
    expect(after.listResults('bon').map((result) => result.runId)).toEqual([failedLine![1]]);
    after.close();
  }, 120_000);

  it('refuses a bad --templates file before any database is created', async () => {
    const templates = join(directory, 'bad-templates.json');
    writeFileSync(templates, '[{"name": "x"}]');
    const db = join(directory, 'never.db');
    const { exitCode, stderr } = await runCommand(registerBonCommand, ['bon', '--scenario', 'arith', '--count', '2', '--pool', 'sampled+templates', '--templates', templates, '--strategies', 'single', '--db', db]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`template file ${templates} is invalid`);
    expect(existsSync(db)).toBe(false);
  });
});
