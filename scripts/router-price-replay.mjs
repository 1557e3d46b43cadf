#!/usr/bin/env node
// Replays the template router alone under the frontier's objectives on a finished demo run, once
// with each template priced per task (the router's ridge fit over the task's routing and size
// facts, `TemplateRouter.executionTokens`) and once at its mean on the suite (the record,
// `TemplateRouter.meanExecutionTokens`): docs/select.md, "The router prices each task". Every
// template ran once on every test task as a fixed-plan baseline, and the run's stored Best-of-N
// outcomes keep whether each was right and what it spent, so nothing is executed again. The router
// is refitted from the run's store with this build (a run made with this build refits to its own
// router). Prints, per pricing, every operating point (accuracy, execution + verification tokens
// per task, minus best-fixed-per-family with a paired 95% bootstrap interval), the cheapest point
// whose interval reaches 0 and its share of best-fixed-per-family's tokens, and the points a fixed
// plan dominates (cheaper and more accurate), and each pricing's mean absolute error against the
// execution tokens every template spent on every test task.
// --best-fixed arith=reflexion-3,multihop=search replaces the run's best fixed plan of those families
// (chosen after the fact on the test tasks) as the baseline.
// Usage (npm run build first): node scripts/router-price-replay.mjs --demo <demo dir> [--scenario default|file] [--best-fixed family=template,...]
import { deriveSeed } from '../dist/core/index.js';
import { countTokens, trainTemplateRouter } from '../dist/index.js';
import { createSimEnvironment, loadScenario } from '../dist/entry-points/sim.js';
import { DEFAULT_FRONTIER_MARGINS, DEFAULT_FRONTIER_PRICES } from '../dist/select/bon-config.js';
import { pairedDifference } from '../dist/select/summarize-best-of-n.js';
import { demoArgs, loadDemoRun } from './demo-run.mjs';

const args = demoArgs();
const { results, outcomes, bon } = loadDemoRun(args.demo);
if (bon?.outcomes === undefined) {
  process.stderr.write(`${args.demo}/demo.db holds no Best-of-N outcomes: was the demo run to the end?\n`);
  process.exit(2);
}
const { router } = trainTemplateRouter(outcomes);
const environment = await createSimEnvironment(loadScenario(args.scenario ?? results.scenario));
const tasks = environment.tasks('test', results.bon.tasks);
const names = environment.templates.names;
const n = results.bon.n;
const fixed = new Map(bon.outcomes.filter((outcome) => outcome.n === n && outcome.strategy.startsWith('fixed:')).map((outcome) => [`${outcome.taskId}|${outcome.strategy.slice('fixed:'.length)}`, outcome]));
const perSuite = { ...results.bon.bestFixed.perSuite, ...Object.fromEntries((args['best-fixed'] ?? '').split(',').filter(Boolean).map((entry) => entry.split('='))) };
const baseline = tasks.map((task) => fixed.get(`${task.id}|${perSuite[task.suite]}`));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const baselineTokens = mean(baseline.map((outcome) => outcome.tokens.execution + outcome.tokens.verification));
const questionTokens = tasks.map((task) => countTokens(task.question));
const fixedPoints = names.map((name) => {
  const list = tasks.map((task) => fixed.get(`${task.id}|${name}`));
  return { name, accuracy: mean(list.map((outcome) => (outcome.correct ? 1 : 0))), tokens: mean(list.map((outcome) => outcome.tokens.execution + outcome.tokens.verification)) };
});

// The demo's own paired bootstrap and seeds (summarizeFrontier), so a replay of the run's pricing prints the run's intervals.
const baselineOutcomes = tasks.map((task, position) => ({ taskId: task.id, correct: baseline[position].correct }));
const versus = (correct, label) => {
  const { diff, ci } = pairedDifference(tasks.map((task, position) => ({ taskId: task.id, correct: correct[position] === 1 })), baselineOutcomes, deriveSeed(results.seed, `frontier:rm-templates-only:${label}:${n}`), 2000);
  return { points: +(100 * diff).toFixed(1), ci: ci.map((value) => +(100 * value).toFixed(1)) };
};
const objectives = [{ label: 'accuracy' }, ...DEFAULT_FRONTIER_PRICES.map((price) => ({ label: `price=${price}`, price })), ...DEFAULT_FRONTIER_MARGINS.map((margin) => ({ label: `cheapest-within=${margin}`, margin }))];

function replay(costOf) {
  const estimates = tasks.map((task) => ({ success: router.probabilities(task.question, task.suite, names), tokens: costOf(task) }));
  const points = objectives.map((objective) => {
    const correct = [];
    const tokens = [];
    tasks.forEach((task, position) => {
      const { success, tokens: cost } = estimates[position];
      const ranked = names.map((_, index) => index).sort((a, b) => success[b] - success[a] || a - b);
      let chosen = ranked[0];
      if (objective.price !== undefined) for (const index of ranked) if (success[index] - objective.price * cost[index] > success[chosen] - objective.price * cost[chosen]) chosen = index;
      if (objective.margin !== undefined) for (const index of ranked) if (success[index] >= success[ranked[0]] - objective.margin && cost[index] < cost[chosen]) chosen = index;
      const outcome = fixed.get(`${task.id}|${names[chosen]}`);
      correct.push(outcome.correct ? 1 : 0);
      tokens.push(outcome.tokens.execution + questionTokens[position]);
    });
    const accuracy = mean(correct);
    const dominatedBy = fixedPoints.filter((point) => point.accuracy > accuracy && point.tokens < mean(tokens)).map((point) => point.name);
    return { label: objective.label, accuracy: +(100 * accuracy).toFixed(1), tokens: Math.round(mean(tokens)), versusBestFixedPerFamily: versus(correct, objective.label), dominatedBy };
  });
  const matching = points.filter((point) => point.versusBestFixedPerFamily.ci[1] >= 0).sort((a, b) => a.tokens - b.tokens)[0];
  return { matches: matching === undefined ? null : { label: matching.label, tokens: matching.tokens, share: +(matching.tokens / baselineTokens).toFixed(3) }, dominated: points.filter((point) => point.dominatedBy.length > 0).map((point) => point.label), points };
}

// How far each pricing is from what a template spent on a test task, over every template and task.
const priceError = (costOf) => {
  let error = 0;
  let count = 0;
  for (const task of tasks) {
    const prices = costOf(task);
    names.forEach((name, index) => {
      error += Math.abs(prices[index] - fixed.get(`${task.id}|${name}`).tokens.execution);
      count += 1;
    });
  }
  return Math.round(error / count);
};
const report = {
  demo: args.demo,
  tasks: tasks.length,
  bestFixedPerFamily: { perSuite, accuracy: +(100 * mean(baseline.map((outcome) => (outcome.correct ? 1 : 0)))).toFixed(1), tokens: Math.round(baselineTokens) },
  perTask: replay((task) => router.executionTokens(task.question, task.suite, names)),
  suiteMean: replay((task) => router.meanExecutionTokens(task.suite, names)),
  meanAbsolutePriceError: {
    perTask: priceError((task) => router.executionTokens(task.question, task.suite, names)),
    suiteMean: priceError((task) => router.meanExecutionTokens(task.suite, names)),
    meanTokens: Math.round(mean(tasks.flatMap((task) => names.map((name) => fixed.get(`${task.id}|${name}`).tokens.execution)))),
  },
};
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
