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
  },
});
