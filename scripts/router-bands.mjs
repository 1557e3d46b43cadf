#!/usr/bin/env node
// Where the template router's multi-hop choices win and lose on a finished demo run (docs/rm.md,
// "Issue 21, fifth round"): the test tasks of one suite in bands of the router's own popularity
// count (the most mentions of any name of the question among the training task texts, as stored in
// the model file), with how many are famous questions (the world's label, docs/sim.md §4.7), what
// rm-templates-only picked and how often it was right, and how often each template was right on the
// same tasks (bon.picks[].fixed: every template ran on every test task). Reads results.json and
// rm.safetensors only.
// Usage (npm run build first): node scripts/router-bands.mjs --demo <demo dir> [--scenario default|file] [--suite multihop]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskNames } from '../dist/rm/features/task-encoders.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg, index, all) => (arg.startsWith('--') ? [arg.slice(2), all[index + 1]] : null)).filter(Boolean));
if (args.demo === undefined) {
  process.stderr.write('give --demo <folder of `npx orchrm demo`> (it must hold results.json and rm.safetensors)\n');
  process.exit(2);
}
const suite = args.suite ?? 'multihop';
const results = JSON.parse(readFileSync(join(args.demo, 'results.json'), 'utf8'));
const model = readFileSync(join(args.demo, 'rm.safetensors'));
const headerLength = Number(model.readBigUInt64LE(0));
const routerText = JSON.parse(model.subarray(8, 8 + headerLength).toString()).__metadata__?.template_router;
if (routerText === undefined) {
  process.stderr.write(`${args.demo}/rm.safetensors has no template router (trained with --no-template-router, or label-free)\n`);
  process.exit(2);
}
const { popularity } = JSON.parse(routerText);
const counts = new Map(popularity.names.map((name, index) => [name, popularity.counts[index]]));
const picks = new Map(results.bon.picks.map((pick) => [pick.taskId, pick]));
const environment = await createSimEnvironment(loadScenario(args.scenario ?? 'default'));
const tasks = environment.tasks('test', results.bon.tasks).filter((task) => task.suite === suite && picks.has(task.id));
const bands = [
  ['0-1', 0, 1],
  ['2-4', 2, 4],
  ['5+', 5, Infinity],
];
for (const [label, low, high] of bands) {
  const inBand = tasks.filter((task) => {
    const most = Math.max(0, ...taskNames(task.question).map((name) => counts.get(name) ?? 0));
    return most >= low && most <= high;
  });
  const picked = {};
  const templateRight = {};
  let routerRight = 0;
  let famous = 0;
  for (const task of inBand) {
    const pick = picks.get(task.id);
    const chosen = pick.strategies['rm-templates-only'];
    picked[chosen.pick.kind] = (picked[chosen.pick.kind] ?? 0) + 1;
    routerRight += chosen.correct ? 1 : 0;
    famous += task.metadata?.axes?.structure === 'famous' ? 1 : 0;
    for (const [template, correct] of Object.entries(pick.fixed ?? {})) templateRight[template] = (templateRight[template] ?? 0) + (correct ? 1 : 0);
  }
  process.stdout.write(`${JSON.stringify({ suite, popularity: label, tasks: inBand.length, famous, picked, routerRight, templateRight })}\n`);
}
