#!/usr/bin/env node
// Refits a collection's template router twice, as rm train fits it, and scores each by a demo's
// realized template outcomes on its test tasks (bon.picks[].fixed: every template ran on every test
// task), so nothing is executed again (docs/rm.md, "Learning curves and active collection"): once
// with popularity counted over the texts of the tasks the collection executed (as built), once over
// every train task the collection was given, executed or not (the first --count train tasks of the
// default scenario, outside the pair test split; no grade is read). An active collection with a
// budget executes a third of its tasks, so it counts names in a third of the texts.
// Prints each refit's accuracy on the demo's test tasks, overall and per family.
// Usage (npm run build first): node scripts/router-popularity-texts.mjs --collection <db> --demo <demo dir of the same seed> --seed <seed> [--count 600]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPlanOutcomes, openStore, trainTemplateRouter } from '../dist/index.js';
import { assignSplit } from '../dist/pairs/index.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';

const args = Object.fromEntries(process.argv.slice(2).map((arg, index, all) => (arg.startsWith('--') ? [arg.slice(2), all[index + 1]] : null)).filter(Boolean));
if (args.collection === undefined || args.demo === undefined || args.seed === undefined) {
  process.stderr.write('give --collection <store of the collection> --demo <folder of `npx orchrm demo --seed <seed>`> --seed <seed> [--count 600]\n');
  process.exit(2);
}
const seed = Number(args.seed);
// The pair split `pairs mine` assigns by default, so that no test-split text is counted.
const SPLITS = { train: 0.8, validation: 0.1, test: 0.1 };
const store = openStore(args.collection, { readonly: true });
const dataset = store.listPairDatasets().find((record) => record.config?.labelFree !== true);
const outcomes = loadPlanOutcomes(store, dataset.id).filter((outcome) => outcome.split !== 'test');
store.close();
const environment = await createSimEnvironment(loadScenario('default'));
const executed = new Set(outcomes.map((outcome) => outcome.taskId));
// Text-only outcomes: no template and no grade, so only the popularity table reads them.
const unexecuted = environment
  .tasks('train', Number(args.count ?? 600))
  .filter((task) => !executed.has(task.id) && assignSplit(task.id, seed, SPLITS) !== 'test')
  .map((task) => ({ taskId: task.id, question: task.question, suite: task.suite, planText: '', executionTokens: 0, split: assignSplit(task.id, seed, SPLITS) }));
const results = JSON.parse(readFileSync(join(args.demo, 'results.json'), 'utf8'));
const tests = new Map(environment.tasks('test', 400).map((task) => [task.id, task]));
environment.close();

/** The router's accuracy pick on each of the demo's test tasks, scored by that template's realized outcome there. */
function score(router) {
  const names = router.names;
  const families = {};
  for (const pick of results.bon.picks) {
    const task = tests.get(pick.taskId);
    const probabilities = router.probabilities(task.question, task.suite, names);
    const chosen = probabilities.reduce((best, value, index) => (value > probabilities[best] ? index : best), 0);
    const family = (families[task.suite] ??= { right: 0, tasks: 0 });
    family.right += pick.fixed[names[chosen]] ? 1 : 0;
    family.tasks += 1;
  }
  const all = Object.values(families).reduce((sum, family) => ({ right: sum.right + family.right, tasks: sum.tasks + family.tasks }), { right: 0, tasks: 0 });
  const percent = ({ right, tasks }) => +((100 * right) / tasks).toFixed(2);
  return { accuracy: percent(all), ...Object.fromEntries(Object.entries(families).map(([name, family]) => [name, percent(family)])) };
}

process.stdout.write(
  `${JSON.stringify(
    {
      executedTasks: executed.size,
      unexecutedTexts: unexecuted.length,
      executedTextsOnly: score(trainTemplateRouter(outcomes).router),
      everyGivenText: score(trainTemplateRouter([...outcomes, ...unexecuted]).router),
    },
    null,
    2,
  )}\n`,
);
