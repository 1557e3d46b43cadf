#!/usr/bin/env node
// Replays other ways of fitting the template router on a finished demo run (docs/rm.md, "Issue 21,
// fifth round"): each variant is fitted on the run's own graded template episodes outside the test
// split, routes every test task, and is scored on the realized template outcomes the run kept
// (bon.picks[].fixed: every template ran on every test task), so nothing is executed again.
// Variants: the router as rm train fits it ("as built": L2 by validation log loss over 0.1, 1, 10,
// popularity bucketed), L2 by 5-fold cross-validation over the train and validation tasks on a
// wider grid ("cv"), popularity as cumulative thresholds >= 2, 3, 5, 9, 17 instead of buckets
// ("ordinal"), both ("cv+ordinal"), the suite's intercept left unpenalised ("cv+ordinal,
// free intercept"), and one fit shared by every template, each fact crossed with the template's
// name and the words of its name ("pooled", and "pooled, cv"). The logistic fit is this script's own (the product's has no such options).
// Prints, per variant, rm-templates-only minus best-fixed-per-family in points (its point estimate),
// and the run's own rm-templates-only minus best-fixed-per-family beside them.
// Usage (npm run build first): node scripts/router-fit-replay.mjs --demo <demo dir> [--scenario default|file]
import { routerFacts } from '../dist/index.js';
import { fitPopularity, popularityCounts } from '../dist/rm/features/routing-encoders.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';
import { demoArgs, loadDemoRun } from './demo-run.mjs';

const args = demoArgs();
const loaded = loadDemoRun(args.demo);
const { results } = loaded;
const outcomes = loaded.outcomes.filter((outcome) => outcome.split !== 'test');
const counts = popularityCounts(fitPopularity(outcomes.map((outcome) => outcome.question)));

// The bucket fact routerFacts reads becomes cumulative thresholds in the ordinal variants.
const BUCKET_LOW = { '0-1': 0, 2: 2, '3-4': 3, '5-8': 5, '9-16': 9, '17+': 17 };
function facts(question, suite, ordinal) {
  const base = routerFacts(question, suite, counts);
  if (!ordinal) return base;
  return base.flatMap((fact) => {
    const match = /:popularity=(.+)$/.exec(fact);
    if (match === null) return [fact];
    const low = BUCKET_LOW[match[1]];
    return [2, 3, 5, 9, 17].filter((threshold) => low >= threshold).map((threshold) => `${suite}:popularity>=${threshold}`);
  });
}

const sigmoid = (value) => 1 / (1 + Math.exp(-value));
function fit(examples, dimension, l2, penalised, steps = 400) {
  const weights = new Float64Array(dimension);
  const gradient = new Float64Array(dimension);
  for (let step = 0; step < steps; step++) {
    gradient.fill(0);
    for (const { indices, correct } of examples) {
      const residual = sigmoid(indices.reduce((sum, index) => sum + weights[index], 0)) - correct;
      for (const index of indices) gradient[index] += residual;
    }
    for (let index = 0; index < dimension; index++) weights[index] -= (0.5 * (gradient[index] + (penalised[index] ? l2 * weights[index] : 0))) / examples.length;
  }
  return weights;
}
const logLoss = (weights, { indices, correct }) => {
  const probability = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(indices.reduce((sum, index) => sum + weights[index], 0))));
  return -Math.log(correct ? probability : 1 - probability);
};
const foldOf = (taskId, folds) => [...taskId].reduce((hash, char) => (Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0), 2166136261) % folds;

/** Fits one variant; returns its routing function and the L2 it kept. */
function router({ ordinal, select, grid, freeIntercept, pooled }) {
  const graded = outcomes.filter((outcome) => outcome.template !== undefined && outcome.correct !== undefined);
  const perTemplate = new Map();
  for (const outcome of graded) if (outcome.split === 'train') perTemplate.set(outcome.template, (perTemplate.get(outcome.template) ?? 0) + 1);
  const names = [...perTemplate].filter(([, count]) => count >= 10).map(([name]) => name);
  const index = new Map();
  // Pooled: one fit over every template, each fact crossed with the template's own name and with
  // the words of its name (search, sc, steps, cot, reflexion, debate, ...), so templates that share
  // a kind of block share what a fact says about it.
  const planFeatures = (template) => (pooled ? [`id:${template}`, ...template.split('-').filter((word) => !/\d/.test(word))] : ['']);
  const encode = (question, suite, template, grow) => facts(question, suite, ordinal).flatMap((fact) => planFeatures(template).flatMap((feature) => {
    const key = `${fact}|${feature}`;
    if (!index.has(key) && grow) index.set(key, index.size);
    return index.has(key) ? [index.get(key)] : [];
  }));
  const examples = graded.filter((outcome) => names.includes(outcome.template)).map((outcome) => ({ template: outcome.template, taskId: outcome.taskId, split: outcome.split, indices: encode(outcome.question, outcome.suite, outcome.template, true), correct: outcome.correct ? 1 : 0 }));
  const penalised = [...index.keys()].map((key) => !(freeIntercept && key.startsWith('suite=')));
  const fitAll = (list, l2) => {
    if (!pooled) return new Map(names.map((name) => [name, fit(list.filter((example) => example.template === name), index.size, l2, penalised)]));
    const shared = fit(list, index.size, l2, penalised, 4000);
    return new Map(names.map((name) => [name, shared]));
  };
  const mean = (weights, list) => list.reduce((sum, example) => sum + logLoss(weights.get(example.template), example), 0) / list.length;
  let best = { l2: 1, loss: Infinity };
  for (const l2 of grid) {
    const loss =
      select === 'validation'
        ? mean(fitAll(examples.filter((example) => example.split === 'train'), l2), examples.filter((example) => example.split === 'validation'))
        : [0, 1, 2, 3, 4].reduce((sum, fold) => {
            const held = examples.filter((example) => foldOf(example.taskId, 5) === fold);
            return sum + mean(fitAll(examples.filter((example) => foldOf(example.taskId, 5) !== fold), l2), held) * held.length;
          }, 0) / examples.length;
    if (loss < best.loss) best = { l2, loss };
  }
  const weights = fitAll(examples, best.l2);
  const route = (question, suite) => new Map(names.map((name) => [name, encode(question, suite, name, false).reduce((sum, position) => sum + weights.get(name)[position], 0)]));
  return { route, l2: best.l2 };
}

const WIDE = [0.1, 0.3, 1, 3, 10, 30, 100];
const variants = {
  'as built': { ordinal: false, select: 'validation', grid: [0.1, 1, 10] },
  cv: { ordinal: false, select: 'cv', grid: WIDE },
  ordinal: { ordinal: true, select: 'validation', grid: [0.1, 1, 10] },
  'cv+ordinal': { ordinal: true, select: 'cv', grid: WIDE },
  'cv+ordinal, free intercept': { ordinal: true, select: 'cv', grid: WIDE, freeIntercept: true },
  pooled: { ordinal: false, select: 'validation', grid: [0.1, 1, 10], pooled: true },
  'pooled, cv': { ordinal: false, select: 'cv', grid: WIDE, pooled: true },
};
const environment = await createSimEnvironment(loadScenario(args.scenario ?? 'default'));
const picks = new Map(results.bon.picks.map((pick) => [pick.taskId, pick]));
const bestFixed = results.bon.bestFixed.perSuite;
const tasks = environment.tasks('test', results.bon.tasks).filter((task) => picks.has(task.id));
const report = { demo: args.demo, tasks: tasks.length };
const chosenL2 = {};
for (const [name, variant] of Object.entries(variants)) {
  const { route, l2 } = router(variant);
  chosenL2[name] = l2;
  let sum = 0;
  for (const task of tasks) {
    const pick = picks.get(task.id);
    const logits = route(task.question, task.suite);
    let chosen;
    for (const template of Object.keys(pick.fixed)) if (logits.has(template) && (chosen === undefined || logits.get(template) > logits.get(chosen))) chosen = template;
    sum += (pick.fixed[chosen ?? bestFixed[task.suite]] ? 1 : 0) - (pick.fixed[bestFixed[task.suite]] ? 1 : 0);
  }
  report[name] = +((100 * sum) / tasks.length).toFixed(1);
}
report.l2 = chosenL2;
// The run's own figure, for comparison with 'as built' (this script's logistic fit is not rm train's, so they can differ slightly).
report['run itself'] = +(100 * results.bon.paired['rm-templates-only-vs-best-fixed-per-family'].diff).toFixed(1);
process.stdout.write(`${JSON.stringify(report)}\n`);
