import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { BUILT_CLI, ensureBuilt, REPO_ROOT } from './test-fixtures/built-package.js';

/*
 * The README's route: after `npm ci`, `npx orchrm` in the clone. npx does not find the project's
 * own bin in node_modules/.bin, so the first call installs this folder into npm's cache, which
 * runs the package's `prepare` script; that script must not rebuild an up-to-date dist/ (it did:
 * 45-80 s with no output before the first command's own output).
 */

beforeAll(ensureBuilt, 300_000);

it('the first npx orchrm in a clone with dist/ built runs the built CLI without rebuilding it', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'orchrm-npx-cache-'));
  try {
    const before = statSync(BUILT_CLI).mtimeMs;
    // A fresh npm cache: the first npx of this folder, as on a fresh clone. --offline: nothing is fetched.
    const { stdout, stderr } = await promisify(execFile)('npm', ['exec', '--offline', '--cache', cache, '--loglevel=info', '--', 'orchrm', '--version'], { cwd: REPO_ROOT });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(stderr).toMatch(/prepare .*build-if-stale/);
    expect(statSync(BUILT_CLI).mtimeMs).toBe(before);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 300_000);
