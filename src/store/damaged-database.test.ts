import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerExportCommand } from '../cli/commands/export.js';
import { registerPairsCommand } from '../cli/commands/pairs.js';
import { runCommand } from '../cli/test-fixtures/run-command.js';
import { createRichEpisode } from '../testing/episode-factory.js';
import { DatabaseDamagedError } from './database-damaged-error.js';
import { openStore } from './open-store.js';

let directory: string;
let path: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-damaged-'));
  path = join(directory, 'runs.db');
  const store = openStore(path, { keepPrompts: true });
  store.createRun({ id: 'run_d', kind: 'collect', config: {} });
  for (let seed = 1; seed <= 30; seed++) store.insertEpisode(createRichEpisode({ seed, runId: 'run_d', sampleIndex: seed }));
  // Closing the last connection checkpoints the WAL into the file.
  store.close();
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** Overwrites pages `first`..`last` (1-based, 4096 bytes each) with zeros, as a failing disk or a bad copy leaves them. */
function zeroPages(first: number, last: number): void {
  const file = openSync(path, 'r+');
  writeSync(file, Buffer.alloc((last - first + 1) * 4096), 0, (last - first + 1) * 4096, (first - 1) * 4096);
  closeSync(file);
}

/** The salvage needs the sqlite3 shell (Debian: apt-get install sqlite3); without it that test is skipped. */
const HAS_SQLITE3 = (() => {
  try {
    execFileSync('sqlite3', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('damaged-database.test.ts: no sqlite3 shell on PATH; skipping the salvage test (apt-get install sqlite3)');
    return false;
  }
})();

const hash = () => createHash('sha256').update(readFileSync(path)).digest('hex');
const RECIPE = [
  /is damaged \(SQLite: .+\); orchrm wrote nothing to it/,
  /sqlite3 .*runs\.db "PRAGMA integrity_check"/,
  /Salvage the readable rows into a new file with: \(sqlite3 .*runs\.db \.dump \| sed .*; echo "PRAGMA user_version = 4;"\) \| sqlite3 .*runs\.recovered\.db/,
  /sqlite3 .*runs\.db \.recover \| sqlite3 .*runs\.recovered\.db\), then pass --db .*runs\.recovered\.db/,
  /restore .*runs\.db from a backup/,
];

describe('a damaged database', () => {
  it('is refused by pairs mine with what is wrong and how to recover, and left as it was', async () => {
    zeroPages(60, 63);
    const before = hash();
    const { exitCode, stderr } = await runCommand(registerPairsCommand, ['pairs', 'mine', '--db', path]);
    expect(exitCode).toBe(2);
    for (const pattern of RECIPE) expect(stderr).toMatch(pattern);
    expect(stderr).not.toMatch(/unexpected error|at .*\.ts:\d+/);
    expect(hash()).toBe(before);
  });

  it('names the damage where a read-only command meets it', () => {
    zeroPages(60, 63);
    const store = openStore(path, { readonly: true });
    try {
      expect(() => [...store.iterateEpisodes({})]).toThrow(DatabaseDamagedError);
      expect(() => [...store.iterateEpisodes({})]).toThrow(RECIPE[0]!);
    } finally {
      store.close();
    }
  });

  it.runIf(HAS_SQLITE3)('suggests a salvage that works as printed', () => {
    zeroPages(60, 63);
    // The suggested salvage, run as printed (this machine's sqlite3 3.40.1 cannot .recover): the
    // salvaged file opens as an orchrm store of the current schema and keeps the readable episodes.
    let message = '';
    try {
      openStore(path);
    } catch (error) {
      message = (error as Error).message;
    }
    const salvage = /Salvage the readable rows into a new file with: (.*?) \(or, where/.exec(message)?.[1];
    expect(salvage).toBeDefined();
    execFileSync('sh', ['-c', salvage!], { stdio: 'ignore' });
    const recovered = join(directory, 'runs.recovered.db');
    const salvaged = openStore(recovered);
    try {
      const kept = salvaged.listEpisodes({}).length;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(30);
      expect(salvaged.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      salvaged.close();
    }
  });
});

describe('orchrm export --out of a database damaged mid-table', () => {
  it('ends with the recovery recipe, exit 2, and leaves neither the output nor a .partial file', async () => {
    zeroPages(60, 63);
    const out = join(directory, 'episodes.jsonl');
    const { exitCode, stderr } = await runCommand(registerExportCommand, ['export', '--db', path, '--out', out]);
    expect(stderr).not.toMatch(/unexpected error|ERR_STREAM_DESTROYED|at .*\.ts:\d+/);
    expect(stderr).toMatch(RECIPE[0]!);
    expect(exitCode).toBe(2);
    // The partial file is removed once its stream has closed, not before (a late open recreated it).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readdirSync(directory).filter((name) => name.startsWith('episodes.jsonl'))).toEqual([]);
  });
});
