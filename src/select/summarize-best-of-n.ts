import { deriveSeed } from '../core/index.js';
import { pairedClusterBootstrap, wilsonInterval } from '../rm/index.js';
import type { BestOfNRun, TaskOutcome } from './run-best-of-n.js';
import { STRATEGY_NAMES, type OutcomeName } from './selection-strategy.js';

/** One strategy at one N, as `orchrm bon --json` prints it. */
export interface StrategySummary {
  accuracy: number;
  /** 95% Wilson interval of the accuracy. */
  ci: [number, number];
  /** Mean tokens per task, by role. */
  tokens: { orchestrator: number; execution: number; verification: number; total: number };
  executionsPerTask: number;
  /** Judge replies that could not be read (the strategy then ran candidate 0); only when any. */
  judgeFailures?: number;
}

/** A paired comparison on the same tasks: mean difference of correctness, with its own interval. */
export interface PairedDifference {
  diff: number;
  /** 95% paired-bootstrap interval (tasks resampled). */
  ci: [number, number];
}

/** The JSON at one N. */
export interface BonTable {
  n: number;
  tasks: number;
  strategies: Partial<Record<OutcomeName, StrategySummary>>;
  paired: Record<string, PairedDifference>;
  /**
   * With the template pool: which template `best-fixed` is (the best on these tasks), and for
   * `best-fixed-per-family` which template each suite uses (the best on that suite's tasks).
   * Both are chosen after the fact on the very tasks they are scored on, so they flatter the
   * baseline: a router that knew the best fixed plan of each family in advance could do no better.
   * `perSuiteFromTraining`: the template per suite behind `train-best-fixed-per-family`, chosen on
   * the model's training data (`BestOfNRun.fixedFromTraining`), which a user could deploy.
   */
  bestFixed?: { overall: string; perSuite: Record<string, string>; perSuiteFromTraining?: Record<string, string> };
}

export interface SummarizeOptions {
  /** Keep only tasks of this suite (family), e.g. for a per-family table. */
  suite?: string;
}

/**
 * Summarises a run at every N: accuracy with Wilson intervals, mean tokens per task by role,
 * executions per task, and paired differences between strategies with paired-bootstrap
 * intervals (seeded from the run's seed, so the same run gives the same intervals).
 */
export function summarizeBestOfN(run: BestOfNRun, options: SummarizeOptions = {}): BonTable[] {
  const outcomes = options.suite === undefined ? run.outcomes : run.outcomes.filter((outcome) => outcome.suite === options.suite);
  return run.config.ns.map((n) => summarizeAtN(run, n, outcomes.filter((outcome) => outcome.n === n)));
}

function summarizeAtN(run: BestOfNRun, n: number, outcomes: readonly TaskOutcome[]): BonTable {
  const byStrategy = new Map<OutcomeName, TaskOutcome[]>();
  for (const outcome of outcomes) {
    let list = byStrategy.get(outcome.strategy);
    if (list === undefined) byStrategy.set(outcome.strategy, (list = []));
    list.push(outcome);
  }
  const bestFixed = addBestFixed(byStrategy);
  if (bestFixed !== undefined && run.fixedFromTraining !== undefined && addFixedFromTraining(byStrategy, run.fixedFromTraining)) bestFixed.perSuiteFromTraining = { ...run.fixedFromTraining };
  const strategies: BonTable['strategies'] = {};
  for (const name of outcomeOrder([...byStrategy.keys()])) strategies[name] = summarizeStrategy(byStrategy.get(name)!);
  const paired: Record<string, PairedDifference> = {};
  for (const [a, b] of comparisons([...byStrategy.keys()])) {
    paired[`${a}-vs-${b}`] = pairedDifference(byStrategy.get(a)!, byStrategy.get(b)!, pairedSeed(run.config.seed, n), run.config.bootstrapResamples);
  }
  const tasks = new Set(outcomes.map((outcome) => outcome.taskId)).size;
  return { n, tasks, strategies, paired, ...(bestFixed !== undefined && { bestFixed }) };
}

const isFixed = (name: string): name is `fixed:${string}` => name.startsWith('fixed:');
const accuracyOf = (list: readonly TaskOutcome[]) => list.filter((outcome) => outcome.correct).length / Math.max(1, list.length);

/** The best of several fixed templates by accuracy on `outcomes`; the first listed wins a tie. */
function bestTemplate(names: readonly `fixed:${string}`[], byStrategy: ReadonlyMap<OutcomeName, TaskOutcome[]>, keep: (outcome: TaskOutcome) => boolean): `fixed:${string}` {
  let best = names[0]!;
  let bestAccuracy = -1;
  for (const name of names) {
    const accuracy = accuracyOf(byStrategy.get(name)!.filter(keep));
    if (accuracy > bestAccuracy) [best, bestAccuracy] = [name, accuracy];
  }
  return best;
}

/**
 * Adds the rows `best-fixed` (the one template best on all these tasks) and
 * `best-fixed-per-family` (each task run with the template best on its suite), when templates ran.
 */
export function addBestFixed(byStrategy: Map<OutcomeName, TaskOutcome[]>): BonTable['bestFixed'] {
  const fixed = [...byStrategy.keys()].filter(isFixed).sort();
  if (fixed.length === 0) return undefined;
  const overall = bestTemplate(fixed, byStrategy, () => true);
  byStrategy.set('best-fixed', byStrategy.get(overall)!.map((outcome) => ({ ...outcome, strategy: 'best-fixed' })));
  const suites = [...new Set(byStrategy.get(overall)!.map((outcome) => outcome.suite))].sort();
  const perSuite: Record<string, string> = {};
  const perFamily: TaskOutcome[] = [];
  for (const suite of suites) {
    const name = bestTemplate(fixed, byStrategy, (outcome) => outcome.suite === suite);
    perSuite[suite] = name.slice('fixed:'.length);
    perFamily.push(...byStrategy.get(name)!.filter((outcome) => outcome.suite === suite).map((outcome) => ({ ...outcome, strategy: 'best-fixed-per-family' as const })));
  }
  byStrategy.set('best-fixed-per-family', perFamily);
  return { overall: overall.slice('fixed:'.length), perSuite };
}

/**
 * Adds the row `train-best-fixed-per-family`: each task run with the template `chosen` names for
 * its suite. False, and no row, when a suite of these tasks has no choice or its template did not run.
 */
function addFixedFromTraining(byStrategy: Map<OutcomeName, TaskOutcome[]>, chosen: Readonly<Record<string, string>>): boolean {
  const suites = new Set([...byStrategy].filter(([name]) => isFixed(name)).flatMap(([, list]) => list.map((outcome) => outcome.suite)));
  const rows: TaskOutcome[] = [];
  for (const suite of suites) {
    const template = chosen[suite];
    const list = template === undefined ? undefined : byStrategy.get(`fixed:${template}`);
    if (list === undefined) return false;
    rows.push(...list.filter((outcome) => outcome.suite === suite).map((outcome) => ({ ...outcome, strategy: 'train-best-fixed-per-family' as const })));
  }
  byStrategy.set('train-best-fixed-per-family', rows);
  return true;
}

/** Rows in report order: the strategies, the best-fixed rows, then each template. */
export function outcomeOrder(names: readonly OutcomeName[]): OutcomeName[] {
  const present = new Set(names);
  const order: OutcomeName[] = [...STRATEGY_NAMES, 'best-fixed', 'best-fixed-per-family', 'train-best-fixed-per-family'];
  return [...order.filter((name) => present.has(name)), ...names.filter(isFixed).sort()];
}

function summarizeStrategy(outcomes: readonly TaskOutcome[]): StrategySummary {
  const count = outcomes.length;
  let correct = 0;
  let executions = 0;
  let judgeFailures = 0;
  const sums = { orchestrator: 0, execution: 0, verification: 0 };
  for (const outcome of outcomes) {
    if (outcome.correct) correct++;
    executions += outcome.executions;
    if (outcome.judgeFailed === true) judgeFailures++;
    sums.orchestrator += outcome.tokens.orchestrator;
    sums.execution += outcome.tokens.execution;
    sums.verification += outcome.tokens.verification;
  }
  const interval = wilsonInterval(correct, count);
  const mean = (value: number) => round(count === 0 ? 0 : value / count, 1);
  return {
    accuracy: round(count === 0 ? 0 : correct / count, 4),
    ci: [round(interval.low, 4), round(interval.high, 4)],
    tokens: {
      orchestrator: mean(sums.orchestrator),
      execution: mean(sums.execution),
      verification: mean(sums.verification),
      total: mean(sums.orchestrator + sums.execution + sums.verification),
    },
    executionsPerTask: round(count === 0 ? 0 : executions / count, 3),
    ...(judgeFailures > 0 && { judgeFailures }),
  };
}

/**
 * The comparisons reports show, among the rows present: every strategy against `single`; `rm`
 * and `rm+templates` against every baseline a sceptic would name (first-valid, the best fixed
 * plans, majority, the judges, oracle); `rm-templates-only` against the best fixed plans; the
 * voting rm strategies against `majority`; and how much choosing the fixed plan per family on the
 * test tasks gains over choosing it on the training data.
 */
export function comparisons(present: readonly OutcomeName[]): [OutcomeName, OutcomeName][] {
  const has = new Set(present);
  const pairs: [OutcomeName, OutcomeName][] = [];
  const add = (a: OutcomeName, b: OutcomeName) => {
    if (has.has(a) && has.has(b)) pairs.push([a, b]);
  };
  for (const name of [...STRATEGY_NAMES, 'best-fixed', 'best-fixed-per-family', 'train-best-fixed-per-family'] as const) if (name !== 'single') add(name, 'single');
  for (const baseline of ['first-valid', 'best-fixed', 'best-fixed-per-family', 'train-best-fixed-per-family', 'majority', 'judge', 'plan-judge', 'oracle'] as const) {
    add('rm', baseline);
    add('rm+templates', baseline);
  }
  add('rm-templates-only', 'best-fixed');
  add('rm-templates-only', 'best-fixed-per-family');
  add('rm-templates-only', 'train-best-fixed-per-family');
  add('best-fixed-per-family', 'train-best-fixed-per-family');
  add('rm+templates', 'rm');
  add('rm+templates', 'rm-templates-only');
  add('rm-topk-vote', 'majority');
  add('rm-adaptive', 'majority');
  return pairs;
}

/**
 * The seed of every paired comparison of a run at N (the table's and the frontier's): common
 * random numbers, so every comparison over the same tasks resamples them alike, and two strategies
 * with the same outcome on every task get the same interval against any third. With a seed per
 * pair of names, a verdict at an interval's edge could differ between identical picks.
 */
export function pairedSeed(runSeed: number, n: number): number {
  return deriveSeed(runSeed, `paired:${n}`);
}

/**
 * Mean of correct(a) - correct(b) over the tasks both ran, with a paired bootstrap over tasks
 * (drawn in task-id order, so the draws depend on the seed and the set of tasks only).
 */
export function pairedDifference(a: readonly Pick<TaskOutcome, 'taskId' | 'correct'>[], b: readonly Pick<TaskOutcome, 'taskId' | 'correct'>[], seed: number, resamples: number): PairedDifference {
  const score = (outcome: Pick<TaskOutcome, 'taskId' | 'correct'>) => ({ taskId: outcome.taskId, score: outcome.correct ? 1 : 0 });
  return pairedScoreDifference(a.map(score), b.map(score), seed, resamples);
}

/**
 * `pairedDifference` over scores in [0, 1] per task: a strategy's expected correctness on a task,
 * such as a random mix of fixed plans (`correct` counts 1).
 */
export function pairedScoreDifference(a: readonly { taskId: string; score: number }[], b: readonly { taskId: string; score: number }[], seed: number, resamples: number): PairedDifference {
  const other = new Map(b.map((outcome) => [outcome.taskId, outcome.score]));
  const shared = a.filter((outcome) => other.has(outcome.taskId)).sort((x, y) => (x.taskId < y.taskId ? -1 : x.taskId > y.taskId ? 1 : 0));
  const result = pairedClusterBootstrap(
    shared.map((outcome) => outcome.score),
    shared.map((outcome) => other.get(outcome.taskId)!),
    shared.map((outcome) => outcome.taskId),
    { seed, resamples },
  );
  return { diff: round(result.difference, 4), ci: [round(result.ci.low, 4), round(result.ci.high, 4)] };
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
