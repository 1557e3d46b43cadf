import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files, slowest first (each took 7-91 s on 2 idle cores). Vitest runs the files
 * that took longest last time first, but a fresh clone has no record of that and vitest then
 * goes by file size, which started improve-by-execution (17 s, a small file) among the last:
 * one core idled while it finished. Starting these first keeps the end of the run short. A file
 * missing here only runs in vitest's own order.
 */
const SLOWEST_FILES = [
  'src/cli/readme-commands.test.ts',
  'src/package-surface.test.ts',
  'src/collect/collect-resume.test.ts',
  'src/demo/run-demo.test.ts',
  'src/sim/improve/improve-by-execution.test.ts',
  'src/collect/collect-faults.test.ts',
  'src/rm/rm-train-resume.test.ts',
  'src/sim/grpo/sim-grpo.test.ts',
  'src/tasks/shared-data.test.ts',
  'src/train/grpo-resume.test.ts',
  'src/demo/run-loop.test.ts',
  'src/report/viewer/viewer-page.test.ts',
];

class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FILES.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? SLOWEST_FILES.length : index;
    };
    // Stable: the files not listed keep vitest's order.
    return sorted.map((file, position) => ({ file, position })).sort((a, b) => rank(a.file) - rank(b.file) || a.position - b.position).map(({ file }) => file);
  }
}

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
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
