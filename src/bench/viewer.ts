import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM_PATH = '/usr/bin/chromium';
/** The target: the demo database's first task on screen within 3 s of running the command. */
const TARGET_MS = 3000;
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far, from /proc (Linux); undefined elsewhere. Unlike wall time it
 * hardly depends on what else the machine is running.
 */
function cpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces) start at the last ')'; utime and stime are the 14th and 15th fields.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * How long `orchrm view` takes to show the first task of a database, as a person gets it: from
 * starting the command (module loading, opening the database, building the task index, loading
 * the model) to its URL printed, then from opening that URL in Chromium to the first task's plans
 * drawn (facets, the first page of tasks, the task with every plan scored and explained). Three
 * fresh runs. Reads the demo's database (`npm start` writes orchrm-demo/demo.db, about 310 MB), or
 * the one ORCHRM_BENCH_VIEWER_DB names, with the rm.safetensors beside it when there is one.
 */
export async function benchViewer() {
  const db = process.env.ORCHRM_BENCH_VIEWER_DB ?? join(REPO_ROOT, 'orchrm-demo', 'demo.db');
  if (!existsSync(db)) return { skipped: `no database at ${db}; run npm start (orchrm demo) first, or set ORCHRM_BENCH_VIEWER_DB` };
  if (!existsSync(CHROMIUM_PATH)) return { skipped: `${CHROMIUM_PATH} not found; install it with apt-get install -y chromium` };
  const model = join(db, '..', 'rm.safetensors');
  const args = [join(REPO_ROOT, 'dist', 'cli', 'main.js'), 'view', '--db', db, '--port', '0', '--json', ...(existsSync(model) ? ['--model', model] : [])];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const runs: { commandReadyMs: number; commandCpuMs: number | null; pageFirstTaskMs: number; serverCpuMs: number | null; totalMs: number; plans: number }[] = [];
  const loadAverageBefore = Number(loadavg()[0]!.toFixed(2));
  try {
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let text = '';
          child.stdout.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes('\n')) resolve((JSON.parse(text.split('\n')[0]!) as { url: string }).url);
          });
          child.once('exit', (code) => reject(new Error(`orchrm view exited with ${code} before listening`)));
        });
        const commandReadyMs = performance.now() - started;
        const commandCpuMs = cpuMs(child.pid!);
        const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
        const opened = performance.now();
        await page.goto(url);
        await page.waitForSelector('article.plan', { timeout: 60_000 });
        const pageFirstTaskMs = performance.now() - opened;
        const serverCpuMs = cpuMs(child.pid!);
        runs.push({
          commandReadyMs: Math.round(commandReadyMs),
          commandCpuMs: commandCpuMs === undefined ? null : Math.round(commandCpuMs),
          pageFirstTaskMs: Math.round(pageFirstTaskMs),
          // What the server spent answering the page (its part of pageFirstTaskMs; the rest is Chromium).
          serverCpuMs: serverCpuMs === undefined || commandCpuMs === undefined ? null : Math.round(serverCpuMs - commandCpuMs),
          totalMs: Math.round(commandReadyMs + pageFirstTaskMs),
          plans: await page.locator('article.plan').count(),
        });
        await page.close();
      } finally {
        child.kill('SIGTERM');
      }
    }
  } finally {
    await browser.close();
  }
  const totals = runs.map((run) => run.totalMs).sort((a, b) => a - b);
  return {
    database: db,
    databaseMegabytes: Math.round(statSync(db).size / 1024 / 1024),
    model: existsSync(model) ? model : null,
    cores: availableParallelism(),
    loadAverageBefore,
    runs,
    medianTotalMs: totals[1],
    targetMs: TARGET_MS,
    metTarget: totals[1]! < TARGET_MS,
  };
}
