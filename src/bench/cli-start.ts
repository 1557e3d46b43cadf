import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CliStartBenchOptions {
  /** Runs of each command; they are interleaved so that a busy moment hits all of them alike. @default 15 */
  runs?: number;
  /** The CLI to time, e.g. another checkout's build to compare with. @default this build's dist/cli/main.js */
  cli?: string;
}

/** The built CLI beside this file (dist/bench/ -> dist/cli/main.js). */
const BUILT_CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

const PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '', params: {} }], edges: [], answer: 'A' });

function wallMs(args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Start-up cost of the CLI as a user meets it: the wall time of `orchrm --help` and of
 * `orchrm plan check` on one small plan, each as a ratio to a bare `node -e 0` measured in the
 * same interleaved runs (the issue-16 target is at most 4x).
 */
export function benchCliStart(options: CliStartBenchOptions = {}) {
  const runs = options.runs ?? 15;
  const cli = options.cli ?? BUILT_CLI;
  const folder = mkdtempSync(join(tmpdir(), 'orchrm-bench-cli-'));
  const planFile = join(folder, 'plan.json');
  writeFileSync(planFile, PLAN);
  const commands = { bareNode: ['-e', '0'], help: [cli, '--help'], planCheck: [cli, 'plan', 'check', planFile] } as const;
  const times: Record<keyof typeof commands, number[]> = { bareNode: [], help: [], planCheck: [] };
  try {
    for (let run = 0; run < runs; run++) for (const [name, args] of Object.entries(commands)) times[name as keyof typeof commands].push(wallMs(args));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const bareNodeMs = median(times.bareNode);
  const figure = (name: 'help' | 'planCheck') => ({ medianMs: Math.round(median(times[name])), ratioToBareNode: Number((median(times[name]) / bareNodeMs).toFixed(2)) });
  return { runs, bareNodeMedianMs: Math.round(bareNodeMs), help: figure('help'), planCheck: figure('planCheck'), targetRatio: 4 };
}
