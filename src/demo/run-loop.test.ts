import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLoop } from './run-loop.js';

describe('runLoop', () => {
  it('retrains on everything collected so far each round and records what each round measured and spent', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'orchrm-loop-'));
    const { rounds, loopPath, reportPath } = await runLoop({ outDir, rounds: 2, tasksPerRound: 30, testTasks: 20, seed: 1 });
    expect(rounds.map((round) => round.round)).toEqual([1, 2]);
    expect(rounds[1]?.pairs).toBeGreaterThan(rounds[0]?.pairs ?? 0);
    // From round 2 the reward model ranks candidate plans: its reading is paid as verification.
    expect(rounds[0]?.tokens.verification).toBe(0);
    expect(rounds[1]?.tokens.verification).toBeGreaterThan(0);
    for (const round of rounds) {
      expect(round.pairAccuracy).toBeGreaterThan(0);
      expect(round.tokens.total).toBe(round.tokens.orchestrator + round.tokens.execution + round.tokens.verification);
    }
    expect(JSON.parse(readFileSync(loopPath, 'utf8')).rounds).toEqual(rounds);
    expect(reportPath).toBeUndefined();
  }, 120_000);
});
