import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Wall time of `npm test` (type-check, then every test file), as a newcomer pays it. The load
 * average before the run is printed beside it: on a busy machine the figure says little.
 */
export function benchTestSuite() {
  const loadBefore = Number(loadavg()[0]!.toFixed(2));
  const started = process.hrtime.bigint();
  const result = spawnSync('npm', ['test'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { command: 'npm test', passed: result.status === 0, wallSeconds: Math.round(seconds), cores: availableParallelism(), loadAverageBefore: loadBefore, targetSeconds: 150 };
}
