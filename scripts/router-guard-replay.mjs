#!/usr/bin/env node
// Replays template-routing rules on a finished demo run's realized template outcomes (docs/rm.md,
// "Issue 21, fourth round"): every template ran on every test task as a fixed-plan baseline, and
// results.json keeps whether each was right (bon.picks[].fixed), so a rule's rm-templates-only
// accuracy is read off without executing anything again. Rules: the template router as bon uses
// it (argmax), and a guarded one that keeps the suite's reference (the template with the highest
// mean predicted success over the suite's training tasks) unless the router's logit difference
// exceeds k standard errors of it (Laplace approximation of each template's logistic fit), and a
// cost tie-break that takes, among the templates within k standard errors of the router's top
// one, the one with the fewest mean execution tokens in the suite's template episodes.
// Prints, per rule, rm-templates-only minus best-fixed-per-family in points with a paired 95%
// bootstrap interval, and checks that the router's replay equals the run's own rm-templates-only.
// Usage (npm run build first): node scripts/router-guard-replay.mjs --demo <demo dir> [--scenario default|file] [--k 1,0.5,2] [--cheap 0.25,0.5,1]
import { routerFacts, trainTemplateRouter } from '../dist/index.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';
import { demoArgs, loadDemoRun } from './demo-run.mjs';

const args = demoArgs();
const ks = (args.k ?? '1').split(',').map(Number);
const cheapKs = args.cheap === undefined ? [] : args.cheap.split(',').map(Number);
const { results, outcomes } = loadDemoRun(args.demo);
const { router } = trainTemplateRouter(outcomes);
const { data } = router;
const factIndex = new Map(data.facts.map((fact, index) => [fact, index]));
const popularity = new Map(data.popularity.names.map((name, index) => [name, data.popularity.counts[index]]));
const factsOf = (question, suite) => routerFacts(question, suite, popularity).flatMap((fact) => (factIndex.has(fact) ? [factIndex.get(fact)] : []));
const weights = new Map(data.templates.map((template) => [template.name, template.weights]));
const sigmoid = (value) => 1 / (1 + Math.exp(-value));
const logit = (name, facts) => facts.reduce((sum, index) => sum + weights.get(name)[index], 0);

// Laplace: each template's posterior covariance, (sum p(1-p) x x' + l2 I)^-1 over its graded train and validation episodes.
function invert(matrix) {
  const n = matrix.length;
  const m = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(m[row][column]) > Math.abs(m[pivot][column])) pivot = row;
    [m[column], m[pivot]] = [m[pivot], m[column]];
    const divisor = m[column][column];
    for (let j = 0; j < 2 * n; j++) m[column][j] /= divisor;
    for (let row = 0; row < n; row++) {
      const factor = m[row][column];
      if (row !== column && factor !== 0) for (let j = 0; j < 2 * n; j++) m[row][j] -= factor * m[column][j];
    }
  }
  return m.map((row) => row.slice(n));
}
const graded = outcomes.filter((outcome) => outcome.template !== undefined && outcome.correct !== undefined && outcome.split !== 'test' && weights.has(outcome.template));
const covariance = new Map();
for (const name of weights.keys()) {
  const hessian = data.facts.map((_, i) => data.facts.map((__, j) => (i === j ? data.l2 : 0)));
  for (const outcome of graded.filter((entry) => entry.template === name)) {
    const facts = factsOf(outcome.question, outcome.suite);
    const p = sigmoid(logit(name, facts));
    for (const i of facts) for (const j of facts) hessian[i][j] += p * (1 - p);
  }
  covariance.set(name, invert(hessian));
}
const variance = (name, facts) => facts.reduce((sum, i) => sum + facts.reduce((inner, j) => inner + covariance.get(name)[i][j], 0), 0);

// Each suite's reference: the highest mean predicted success over the suite's training tasks.
const trainingTasks = new Map(graded.map((outcome) => [outcome.taskId, outcome]));
const meanSuccess = {};
for (const outcome of trainingTasks.values()) {
  const facts = factsOf(outcome.question, outcome.suite);
  meanSuccess[outcome.suite] ??= {};
  for (const name of weights.keys()) meanSuccess[outcome.suite][name] = (meanSuccess[outcome.suite][name] ?? 0) + sigmoid(logit(name, facts));
}
const tokenSums = new Map();
for (const outcome of graded) {
  const key = `${outcome.suite}|${outcome.template}`;
  const [sum, count] = tokenSums.get(key) ?? [0, 0];
  tokenSums.set(key, [sum + outcome.executionTokens, count + 1]);
}
const meanTokens = (suite, name) => {
  const [sum, count] = tokenSums.get(`${suite}|${name}`) ?? [0, 0];
  return count === 0 ? Infinity : sum / count;
};
const references = Object.fromEntries(Object.entries(meanSuccess).map(([suite, sums]) => [suite, Object.entries(sums).sort((a, b) => b[1] - a[1])[0][0]]));

const environment = await createSimEnvironment(loadScenario(args.scenario ?? results.scenario));
const picks = new Map(results.bon.picks.map((pick) => [pick.taskId, pick]));
const bestFixed = results.bon.bestFixed.perSuite;
const rules = [['router', undefined], ...ks.map((k) => [`guarded k=${k}`, k]), ...cheapKs.map((k) => [`cheapest within k=${k}`, -k])];
const differences = Object.fromEntries([...rules.map(([name]) => [name, []]), ['run', []]]);
for (const task of environment.tasks('test', results.bon.tasks)) {
  const pick = picks.get(task.id);
  if (pick === undefined) continue;
  const facts = factsOf(task.question, task.suite);
  const names = [...weights.keys()];
  const top = names.reduce((best, name) => (logit(name, facts) > logit(best, facts) ? name : best));
  const reference = references[task.suite];
  const baseline = pick.fixed[bestFixed[task.suite]] ? 1 : 0;
  const within = (name, k) => logit(top, facts) - logit(name, facts) <= k * Math.sqrt(variance(top, facts) + variance(name, facts));
  for (const [name, k] of rules) {
    let chosen = top;
    if (k !== undefined && k > 0 && top !== reference && !(logit(top, facts) - logit(reference, facts) > k * Math.sqrt(variance(top, facts) + variance(reference, facts)))) chosen = reference;
    if (k !== undefined && k < 0) for (const other of names) if (other !== top && within(other, -k) && meanTokens(task.suite, other) < meanTokens(task.suite, chosen)) chosen = other;
    differences[name].push((pick.fixed[chosen] ? 1 : 0) - baseline);
  }
  differences.run.push((pick.strategies['rm-templates-only'].correct ? 1 : 0) - baseline);
}
let state = 1;
const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
const summary = (values) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const draws = Array.from({ length: 2000 }, () => values.reduce((sum) => sum + values[Math.floor(random() * values.length)], 0) / values.length).sort((a, b) => a - b);
  return { points: +(100 * mean).toFixed(1), ci: [+(100 * draws[49]).toFixed(1), +(100 * draws[1949]).toFixed(1)] };
};
const report = { demo: args.demo, tasks: differences.run.length, references, ...Object.fromEntries(Object.entries(differences).map(([name, values]) => [name, summary(values)])) };
if (report.router.points !== report.run.points) process.stderr.write(`the router's replay (${report.router.points}) differs from the run's rm-templates-only (${report.run.points}): was the run made with this build?\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
