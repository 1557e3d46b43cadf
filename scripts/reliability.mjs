#!/usr/bin/env node
// Reliability, measured (docs/reliability.md): SIGKILL at random points of collect, import,
// pairs mine, rm train, grpo and bon, then the same command again, compared with an uninterrupted
// run; and collections through the simulated server's injected faults, then resumed on a healthy
// server, compared with a fault-free run. Runs the built CLI (npm run build first); writes its
// work under a temporary folder and prints one JSON report on stdout.
// Usage: node scripts/reliability.mjs [--kills 3] [--seed 1] [--rates 0.05,0.2,0.5] [--parts collect,import,mine,rm,grpo,bon,faults]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((arg, index, all) => (arg.startsWith('--') ? [arg.slice(2), all[index + 1]] : null)).filter(Boolean));
const KILLS = Number(args.kills ?? 3);
const SEED = Number(args.seed ?? 1);
const RATES = (args.rates ?? '0.05,0.2,0.5').split(',').map(Number);
const PARTS = new Set((args.parts ?? 'collect,import,mine,rm,grpo,bon,faults').split(','));
const want = (part) => PARTS.has(part);
const work = mkdtempSync(join(tmpdir(), 'orchrm-reliability-'));
// A seeded generator for the kill times, so a report can be repeated.
let state = SEED >>> 0 || 1;
const random = () => ((state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0) / 2 ** 32);

function run(argv, { killAfterMs, env } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const sha = (path) => (existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null);
/** A model file's tensors_sha256 (its weights): the file's other bytes hold each epoch's wall time, which differs between any two runs. */
const weightsHash = (path) => {
  if (!existsSync(path)) return null;
  const bytes = readFileSync(path);
  const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString('utf8'));
  return header.__metadata__?.tensors_sha256 ?? null;
};
function query(db, sql) {
  const connection = new Database(db, { readonly: true });
  try {
    return connection.prepare(sql).all();
  } finally {
    connection.close();
  }
}
const integrity = (db) => query(db, 'PRAGMA integrity_check')[0].integrity_check;

/** Episodes with what legitimately differs between runs of one seed blanked (ids, clocks, transport attempts). */
function comparableEpisodes(db) {
  const connection = new Database(db, { readonly: true });
  try {
    const rows = connection.prepare('SELECT task_id, sample_index, status, final_answer, correct, plan_text, execution_total_tokens FROM episodes ORDER BY task_id, sample_index').all();
    const calls = connection.prepare('SELECT e.task_id, e.sample_index, c.node_position, c.position, c.response, c.error FROM llm_calls c JOIN episodes e ON e.id = c.episode_id ORDER BY 1, 2, 3, 4').all();
    return createHash('sha256').update(JSON.stringify([rows, calls])).digest('hex');
  } finally {
    connection.close();
  }
}

/** Runs `argv` killed at `kills` random points (uniform in [0.1, 0.9] of a reference run's time), then to the end. */
async function killed(name, argv, referenceMs) {
  const points = [];
  for (let kill = 0; kill < KILLS; kill++) {
    const at = Math.round(referenceMs * (0.1 + 0.8 * random()));
    const result = await run(argv(), { killAfterMs: at });
    points.push({ atMs: at, killed: result.signal === 'SIGKILL', code: result.code });
  }
  const final = await run(argv());
  return { name, kills: points, finalExit: final.code, finalStderr: final.code === 0 ? undefined : final.stderr.slice(-500), finalStdout: final.stdout };
}

const report = { seed: SEED, killsPerCommand: KILLS, kills: [], faults: [] };

// --- kills -------------------------------------------------------------------------------------
{
  const collectArgs = (db) => () => ['collect', '--scenario', 'default', '--count', '150', '--plans-per-task', '4', '--seed', '3', '--db', db, '--json'];
  const reference = join(work, 'reference.db');
  const timed = await run(collectArgs(reference)());
  const db = join(work, 'killed.db');
  const count = (path) => query(path, 'SELECT count(*) AS n, count(DISTINCT task_id || sample_index) AS samples FROM episodes')[0];
  if (want('collect')) {
  const result = await killed('collect', collectArgs(db), timed.ms);
  report.kills.push({ ...result, finalStdout: undefined, referenceMs: timed.ms, episodes: count(db), reference: count(reference), sameEpisodes: comparableEpisodes(db) === comparableEpisodes(reference), integrity: integrity(db) });
  }

  // import of the reference's episodes into a fresh database
  const file = join(work, 'episodes.jsonl');
  await run(['export', '--db', reference, '--out', file]);
  const importArgs = (target) => () => ['import', file, '--db', target];
  if (want('import')) {
  const importTimed = await run(importArgs(join(work, 'import-reference.db'))());
  const imported = join(work, 'import-killed.db');
  const importResult = await killed('import', importArgs(imported), importTimed.ms);
  report.kills.push({ ...importResult, finalStdout: undefined, referenceMs: importTimed.ms, episodes: count(imported), reference: count(reference), sameEpisodes: comparableEpisodes(imported) === comparableEpisodes(join(work, 'import-reference.db')), integrity: integrity(imported) });
  }

  // pairs mine, rm train and grpo over copies of the reference database
  const pairsCount = (path) => query(path, 'SELECT count(*) AS n FROM pairs')[0].n;
  const copy = (name) => {
    const target = join(work, name);
    writeFileSync(target, readFileSync(reference));
    return target;
  };
  if (want('mine') || want('rm')) {
  const mineReference = copy('mine-reference.db');
  const mineTimed = await run(['pairs', 'mine', '--db', mineReference]);
  const mineKilled = copy('mine-killed.db');
  const mineResult = await killed('pairs mine', () => ['pairs', 'mine', '--db', mineKilled], mineTimed.ms);
  report.kills.push({ ...mineResult, finalStdout: undefined, referenceMs: mineTimed.ms, pairs: pairsCount(mineKilled), referencePairs: pairsCount(mineReference), integrity: integrity(mineKilled) });

  if (want('rm')) {
  const trainArgs = (db, out) => () => ['rm', 'train', '--db', db, '--out', out, '--force'];
  const trainTimed = await run(trainArgs(mineReference, join(work, 'rm-reference.safetensors'))());
  const trainResult = await killed('rm train', trainArgs(mineKilled, join(work, 'rm-killed.safetensors')), trainTimed.ms);
  report.kills.push({ ...trainResult, finalStdout: undefined, referenceMs: trainTimed.ms, referenceExit: trainTimed.code, sameWeights: weightsHash(join(work, 'rm-killed.safetensors')) !== null && weightsHash(join(work, 'rm-killed.safetensors')) === weightsHash(join(work, 'rm-reference.safetensors')) });
  }
  }

  if (want('grpo')) {
  const grpoArgs = (db, out) => () => ['grpo', '--scenario', 'default', '--from', 'base', '--reward', 'execution', '--steps', '4', '--db', db, '--out', out];
  const grpoTimed = await run(grpoArgs(join(work, 'grpo-reference.db'), join(work, 'grpo-reference.json'))());
  const grpoResult = await killed('grpo', grpoArgs(join(work, 'grpo-killed.db'), join(work, 'grpo-killed.json')), grpoTimed.ms);
  report.kills.push({ ...grpoResult, finalStdout: undefined, referenceMs: grpoTimed.ms, referenceExit: grpoTimed.code, sameCheckpoint: sha(join(work, 'grpo-killed.json')) === sha(join(work, 'grpo-reference.json')) });
  }

  if (want('bon')) {
  const bonArgs = (db) => () => ['bon', '--scenario', 'default', '--count', '40', '--n', '4', '--strategies', 'single,majority,oracle', '--concurrency', '2', '--seed', '2', '--db', db, '--json'];
  const bonReference = await run(bonArgs(join(work, 'bon-reference.db'))());
  const bonResult = await killed('bon', bonArgs(join(work, 'bon-killed.db')), bonReference.ms);
  const continuedRuns = query(join(work, 'bon-killed.db'), "SELECT count(*) AS runs FROM runs WHERE kind = 'bon'")[0].runs;
  report.kills.push({ ...bonResult, finalStdout: undefined, referenceMs: bonReference.ms, bonRuns: continuedRuns, sameTable: bonResult.finalExit === 0 && bonResult.finalStdout === bonReference.stdout });
  }
}

// --- faults ------------------------------------------------------------------------------------
async function serve(faultArgs) {
  const child = spawn(process.execPath, [CLI, 'sim', 'serve', '--scenario', 'default', '--port', '0', ...faultArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`sim serve exited with ${code}`)));
  });
  return { url, stop: () => new Promise((resolve) => (child.kill('SIGTERM'), child.on('exit', resolve))) };
}
const providerPath = join(work, 'provider.json');
if (want('faults')) {
const collectRemote = (db) => ['collect', '--scenario', 'default', '--provider', providerPath, '--count', '60', '--plans-per-task', '2', '--seed', '5', '--no-cache', '--stop-after-failures', '0', '--db', db, '--json'];
const pointAt = (url) => writeFileSync(providerPath, JSON.stringify({ type: 'openai', baseURL: url, apiKeyEnv: 'ORCHRM_RELIABILITY_KEY', models: { orchestrator: 'sim-orchestrator-base', worker: 'sim-worker', judge: 'sim-worker' }, maxRetries: 2, timeoutMs: 5000, concurrency: 8, structuredOutput: false }));
{
  const healthy = await serve([]);
  pointAt(healthy.url);
  const clean = join(work, 'faults-clean.db');
  const cleanRun = await run(collectRemote(clean));
  await healthy.stop();
  for (const rate of RATES) {
    const db = join(work, `faults-${rate}.db`);
    const faulty = await serve(['--server-error-rate', String(rate), '--rate-limit-rate', String(rate / 2), '--drop-rate', String(rate / 4), '--retry-after-s', '0', '--fault-seed', '7']);
    pointAt(faulty.url);
    const first = await run(collectRemote(db));
    await faulty.stop();
    const summary = first.stdout.trim() === '' ? {} : JSON.parse(first.stdout);
    const lost = summary.byStatus?.server_error ?? 0;
    const back = await serve([]);
    pointAt(back.url);
    const resumed = await run(collectRemote(db));
    await back.stop();
    const after = JSON.parse(resumed.stdout || '{}');
    report.faults.push({
      rate: { serverError: rate, rateLimit: rate / 2, drop: rate / 4 },
      firstExit: first.code,
      episodes: summary.episodes,
      serverFailures: lost,
      serverFailureShare: summary.episodes ? lost / summary.episodes : null,
      planFailures: summary.byStatus?.runtime_error ?? 0,
      cleanPlanFailures: JSON.parse(cleanRun.stdout).byStatus?.runtime_error ?? 0,
      saysHowToFinish: /finish the run on a healthy server with: .*--resume run_/.test(first.stderr),
      resumedExit: resumed.code,
      resumedServerFailures: after.byStatus?.server_error ?? 0,
      equalsFaultFree: comparableEpisodes(db) === comparableEpisodes(clean),
    });
  }
}

}

process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
