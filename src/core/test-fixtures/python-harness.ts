import { execFile, spawnSync } from 'node:child_process';

/** The interpreter the harness tests use: Debian's, where python3-requests, -aiohttp and -numpy install. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/**
 * Whether `SYSTEM_PYTHON` can import `modules`; when it cannot, `reason` says what is missing
 * and how to install it, for the test's skip title.
 */
export function pythonWith(modules: readonly string[]): { available: boolean; reason: string } {
  const probe = spawnSync(SYSTEM_PYTHON, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' });
  if (probe.error) return { available: false, reason: `skipped: ${SYSTEM_PYTHON} is missing (install python3)` };
  if (probe.status !== 0) {
    const missing = /No module named '([^']+)'/.exec(probe.stderr)?.[1] ?? modules.join(', ');
    return { available: false, reason: `skipped: ${SYSTEM_PYTHON} cannot import ${missing} (apt-get install ${modules.map((module) => `python3-${module}`).join(' ')})` };
  }
  return { available: true, reason: '' };
}

/** Runs a Python script with arguments; resolves with its exit code and output (never rejects). */
export function runPython(script: string, args: readonly string[] = [], options: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      SYSTEM_PYTHON,
      [script, ...args],
      { env: { PATH: process.env.PATH ?? '', ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}
