import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One test file per core. Vitest's default keeps a core free (one worker on a 2-core machine),
    // but many of these files spend their time waiting on child processes and servers.
    maxWorkers: availableParallelism(),
    // A worker runs its files one after another in one process and keeps the modules it has
    // loaded, instead of importing the whole module graph again for each of ~180 files: 135 small
    // files took 48 s of CPU instead of 167 s. It is safe because no test mocks modules
    // (no vi.mock), spies and listeners on process are removed after use, environment variables a
    // test sets are deleted again, and the tests that read process.exitCode reset it before each test.
    isolate: false,
  },
});
