#!/usr/bin/env node
// Collections against one another and against the demo's whole collection (issue 22's active
// target: docs/rm.md, "Learning curves and active collection"). --spec names each collection and
// its `collect` flags. Collects each with the built CLI (npm run build first), mines and trains
// each as the demo does (its two candidate encoders, 12 epochs, tuned on validation), then runs
// Best-of-8 on the default scenario's 400 test tasks with each model and with the demo's, and
// prints one JSON report: each model's collection tokens and accuracies, and paired differences
// with 95% bootstrap intervals over tasks: every pair of the spec's collections (in spec order),
// then each against the whole one.
// Usage: node scripts/compare-collections.mjs --reference orchrm-demo [--seed 0] --spec '{"name": "collect flags", ...}' [--out dir] [--whole-cache file] [--shared-bootstrap]
//   --reference: the folder of `npx orchrm demo --seed <seed>` (its rm.safetensors is the whole collection's model)
//   a collection whose model is already in --out is not collected again (give its flags as ""), nor a model's Best-of-8 run again
//   --shared-bootstrap: one bootstrap stream across all comparisons, in report order, as the figures of
//     docs/rm.md's active-against-passive table were computed; without it each comparison restarts the
//     stream, so an interval does not depend on which other collections the report compares
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRewardModel, openStore, runBestOfN } from '../dist/index.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((arg, index, all) => (arg.startsWith('--') ? [arg.slice(2), all[index + 1]] : null)).filter(Boolean));
if (args.reference === undefined || !existsSync(join(args.reference, 'rm.safetensors'))) {
  process.stderr.write('give --reference <folder of `npx orchrm demo --seed <seed>`> (it must hold rm.safetensors)\n');
  process.exit(2);
}
if (args.spec === undefined) {
  process.stderr.write('give --spec \'{"name": "collect flags", ...}\': the collections to compare (docs/rm.md has the ones of its tables)\n');
  process.exit(2);
}
const SEED = Number(args.seed ?? 0);
const work = args.out === undefined ? mkdtempSync(join(tmpdir(), 'orchrm-compare-collections-')) : resolve(args.out);
mkdirSync(work, { recursive: true });
const ENCODERS = 'shape,route,popularity;shape,cross,route,popularity';
const N = 8;
const STRATEGIES = ['rm', 'rm+templates', 'rm-templates-only'];

function cli(...command) {
  const result = spawnSync(process.execPath, [CLI, ...command], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`orchrm ${command.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  return result.stdout;
}

// --spec '{"name": "collect flags", ...}': the collections to compare with the whole one.
const collections = Object.fromEntries(Object.entries(JSON.parse(args.spec)).map(([name, flags]) => [name, flags.split(' ').filter(Boolean)]));
const models = {};
const tokens = {};
for (const [name, flags] of Object.entries(collections)) {
  const db = join(work, `${name}.db`);
  models[name] = join(work, `${name}.safetensors`);
  if (!existsSync(models[name])) {
    process.stderr.write(`${name}: collecting, mining and training (${flags.join(' ')})\n`);
    const t0 = Date.now();
    cli('collect', '--scenario', 'default', '--orchestrator', 'sim:base', ...flags, '--seed', String(SEED), '--db', db, '--json');
    cli('pairs', 'mine', '--db', db, '--seed', String(SEED), '--json');
    cli('rm', 'train', '--db', db, '--encoders', ENCODERS, '--epochs', '12', '--seed', String(SEED), '--out', models[name], '--force', '--json');
    process.stderr.write(`${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  const store = openStore(db);
  let total = 0;
  for (const episode of store.iterateEpisodes({}, { withCalls: false })) total += episode.usage.orchestrator.totalTokens + episode.usage.execution.totalTokens + episode.usage.verification.totalTokens;
  store.close();
  tokens[name] = total;
}
models.whole = join(args.reference, 'rm.safetensors');

const environment = await createSimEnvironment(loadScenario('default'));
const outcomes = {};
for (const [name, path] of Object.entries(models)) {
  // Outcomes are cached per model (the whole one's in --whole-cache, shared across runs).
  const cache = name === 'whole' ? args['whole-cache'] ?? join(work, 'whole.bon.json') : join(work, `${name}.bon.json`);
  if (existsSync(cache)) {
    outcomes[name] = JSON.parse(readFileSync(cache, 'utf8'));
    continue;
  }
  process.stderr.write(`${name}: Best-of-${N} on 400 test tasks\n`);
  const rewardModel = await loadRewardModel(path);
  const run = await runBestOfN({ environment, tasks: environment.tasks('test', 400), orchestrator: environment.orchestrator('base'), rewardModel, config: { ns: [N], seed: SEED, pool: 'sampled+templates', strategies: STRATEGIES } });
  rewardModel.close();
  outcomes[name] = run.outcomes.filter((outcome) => outcome.n === N);
  writeFileSync(cache, JSON.stringify(outcomes[name]));
}
environment.close();

/** Correct (1) or not (0) per task of one strategy, in task order. */
const correctByTask = (name, strategy) => new Map(outcomes[name].filter((outcome) => outcome.strategy === strategy).map((outcome) => [outcome.taskId, outcome.correct ? 1 : 0]));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
// A seeded generator for the bootstrap (restarted for every comparison unless --shared-bootstrap).
const sharedBootstrap = process.argv.includes('--shared-bootstrap');
let state = (SEED + 1) >>> 0;
const random = () => ((state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0) / 2 ** 32);
function paired(a, b, strategy) {
  if (!sharedBootstrap) state = (SEED + 1) >>> 0;
  const [x, y] = [correctByTask(a, strategy), correctByTask(b, strategy)];
  const differences = [...x.keys()].map((taskId) => x.get(taskId) - y.get(taskId));
  const resampled = Array.from({ length: 2000 }, () => mean(Array.from(differences, () => differences[Math.floor(random() * differences.length)])));
  resampled.sort((p, q) => p - q);
  return { points: +(100 * mean(differences)).toFixed(2), ci: [+(100 * resampled[49]).toFixed(1), +(100 * resampled[1949]).toFixed(1)], tasks: differences.length };
}
const accuracy = (name, strategy) => +(100 * mean([...correctByTask(name, strategy).values()])).toFixed(1);
/** Best fixed plan per family, chosen afterwards on these tasks: per suite, the template kind with the most correct. */
const bestFixedPerFamily = () => {
  const correct = new Map();
  const tasks = new Map();
  for (const outcome of outcomes.whole.filter((entry) => entry.strategy.startsWith('fixed:'))) {
    const key = `${outcome.suite} ${outcome.strategy}`;
    correct.set(key, (correct.get(key) ?? 0) + (outcome.correct ? 1 : 0));
    tasks.set(outcome.suite, new Set([...(tasks.get(outcome.suite) ?? []), outcome.taskId]));
  }
  let total = 0;
  for (const suite of tasks.keys()) total += Math.max(...[...correct].filter(([key]) => key.startsWith(`${suite} `)).map(([, count]) => count));
  return +((100 * total) / [...tasks.values()].reduce((sum, ids) => sum + ids.size, 0)).toFixed(1);
};
const names = Object.keys(collections);
const comparisons = [...names.flatMap((a, index) => names.slice(index + 1).map((b) => [a, b])), ...names.map((name) => [name, 'whole'])];
const report = {
  seed: SEED,
  work,
  collections: Object.fromEntries(Object.entries(collections).map(([name, flags]) => [name, { flags: flags.join(' '), tokens: tokens[name] }])),
  accuracy: Object.fromEntries(STRATEGIES.map((strategy) => [strategy, Object.fromEntries(Object.keys(models).map((name) => [name, accuracy(name, strategy)]))])),
  bestFixedPerFamily: bestFixedPerFamily(),
  paired: Object.fromEntries(STRATEGIES.map((strategy) => [strategy, Object.fromEntries(comparisons.map(([a, b]) => [`${a}-minus-${b}`, paired(a, b, strategy)]))])),
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
