import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is src/cli/test-fixtures/built-package.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The built CLI: tests that spawn orchrm run it, after `ensureBuilt`, rather than the sources through tsx (seconds per start). */
export const BUILT_CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');

const LOCK = join(REPO_ROOT, 'dist.build-lock');
/** A lock older than this was left by a killed build. @unit milliseconds */
const STALE_LOCK_MS = 5 * 60_000;

/** Newest modification time of the sources `npm run build` compiles (tests and fixtures excluded); the same rule as `scripts/build-if-stale.mjs`, npm's `prepare`. */
function newestSourceMs(): number {
  let newest = 0;
  const visit = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-fixtures') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  visit(join(REPO_ROOT, 'src'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) newest = Math.max(newest, statSync(join(REPO_ROOT, file)).mtimeMs);
  return newest;
}

function builtMs(): number {
  try {
    return statSync(join(REPO_ROOT, 'dist', 'cli', 'main.js')).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Makes sure `dist/` is built from the current sources: on a fresh clone `npm ci` has built it
 * (its `prepare` script), so nothing happens; after an edit it runs `npm run build` once, under
 * a lock so two test files do not build at the same time.
 */
export async function ensureBuilt(): Promise<void> {
  for (;;) {
    if (builtMs() >= newestSourceMs()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      const lock = statSync(LOCK, { throwIfNoEntry: false });
      if (lock !== undefined && Date.now() - lock.mtimeMs > STALE_LOCK_MS) rmdirSync(LOCK);
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      if (builtMs() < newestSourceMs()) execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' });
    } finally {
      rmdirSync(LOCK);
    }
  }
}
