import { wilsonInterval } from '../rm/index.js';
import type { BestOfNRun, FrontierOutcome, TaskOutcome } from './run-best-of-n.js';
import { objectiveLabel, type SelectionObjective } from './selection-objective.js';
import type { OutcomeName } from './selection-strategy.js';
import { addBestFixed, pairedDifference, pairedScoreDifference, pairedSeed, round, type PairedDifference } from './summarize-best-of-n.js';

/** Accuracy and mean tokens per task of one row of the frontier chart. */
export interface FrontierRow {
  accuracy: number;
  /** 95% Wilson interval. */
  ci: [number, number];
  /** Mean per task: execution plus verification (what the frontier plots), and everything (orchestrator included). */
  tokens: { executionPlusVerification: number; total: number };
}

/** The strategies a frontier is drawn for: the reward model with the template pool, and the template router alone. */
export type FrontierStrategy = 'rm+templates' | 'rm-templates-only';

/** A frontier strategy under one objective of the sweep. */
export interface FrontierPoint extends FrontierRow {
  /** `accuracy`, `price=0.00001`, `cheapest-within=0.02`. */
  label: string;
  objective: SelectionObjective;
  /** Paired difference of correctness against best-fixed-per-family on the same tasks. */
  versusBestFixedPerFamily: PairedDifference;
  /** Fixed plans both more accurate and cheaper (execution plus verification) than this point. */
  dominatedBy: string[];
}

/**
 * The cost-accuracy frontier of `rm+templates` or `rm-templates-only` (issue 22) at N = `n`: its
 * operating points under the sweep of objectives, against every fixed plan, best-fixed,
 * best-fixed-per-family and the oracle on the same tasks. Tokens are mean execution plus
 * verification tokens per task (what a router's choice changes; writing the plans is the same for
 * every operating point).
 */
export interface BonFrontier {
  n: number;
  tasks: number;
  strategy: FrontierStrategy;
  points: FrontierPoint[];
  /** Every fixed plan, by template name. */
  fixed: (FrontierRow & { name: string })[];
  bestFixed: FrontierRow & { name: string };
  bestFixedPerFamily: FrontierRow & { perSuite: Record<string, string> };
  /** Present when the run had the oracle. */
  oracle?: FrontierRow;
  /**
   * Mean execution plus verification tokens per task of the cheapest operating point whose
   * paired interval against best-fixed-per-family reaches 0 or above (it matches that accuracy);
   * null when no point does.
   */
  tokensAtBestFixedAccuracy: number | null;
  /** The label of that point; null when none. */
  pointAtBestFixedAccuracy: string | null;
  /** `tokensAtBestFixedAccuracy` over best-fixed-per-family's own tokens (target: at most 0.5); null when none. */
  shareOfBestFixedPerFamilyTokens: number | null;
  /**
   * The cheapest fixed plan that matches best-fixed-per-family by the same rule: the saving one
   * fixed plan alone gives, against which a router's saving is judged (the control scenario's
   * target: no saving beyond it). Null when no fixed plan matches.
   */
  cheapestFixedAtBestFixedAccuracy: { name: string; executionPlusVerification: number; versusBestFixedPerFamily: PairedDifference } | null;
  /**
   * The cheapest fixed plan per family as accurate as best-fixed-per-family on every family: per
   * suite, the fixed plan with the fewest execution plus verification tokens on the suite's tasks
   * among those with best-fixed-per-family's accuracy there (it ties on every family, so it matches
   * by the rule above). The saving a fixed choice per family gives without reading any task, which
   * the control scenario's second target judges a router against.
   */
  cheapestFixedPerFamilyAtBestFixedAccuracy: { perSuite: Record<string, string>; executionPlusVerification: number; versusBestFixedPerFamily: PairedDifference };
  /**
   * The best task-blind mix of fixed plans per family that spends the tokens of the point at
   * `pointAtBestFixedAccuracy`, and that point against it; null when no point matches. A router's
   * saving beyond this mix comes from reading the task: the control scenario's target is that
   * there is none (the point minus the mix has an interval reaching 0 or below).
   */
  taskBlindMixAtBestFixedAccuracy: TaskBlindMix | null;
  /** Whether no fixed plan is both cheaper and more accurate than some operating point. */
  undominated: boolean;
}

/**
 * The most accurate task-blind policy over the fixed plans at a token budget: per family, a random
 * share of the family's tasks goes to one fixed plan and the rest to another (as RouteLLM,
 * arXiv 2406.18665, mixes a strong and a weak model at random), so its cost and accuracy lie on the
 * upper hull of the fixed plans' (tokens, accuracy) points, and the budget goes first to the family
 * whose next step up buys the most accuracy per token. It reads no task. Like
 * best-fixed-per-family, it is chosen on the same test tasks, with the plans' measured accuracies.
 */
export interface TaskBlindMix {
  /** Per suite, the share of its tasks each fixed plan takes (one plan, or two that sum to 1). */
  perSuite: Record<string, Record<string, number>>;
  /** Expected accuracy over the tasks. */
  accuracy: number;
  /** Expected mean execution plus verification tokens per task: the budget, or the cheapest fixed plans' when they cost more. */
  executionPlusVerification: number;
  /** The operating point's correctness minus the mix's expected correctness, paired on the same tasks. */
  pointMinusMix: PairedDifference;
}

/**
 * The frontier of `strategy` in a run made with `config.frontier` (undefined without it, without
 * fixed plans, or when the strategy was not swept on every task: `rm-templates-only` is swept only
 * where the template router prices the templates, and a run resumed from one that did not sweep
 * it lacks its earlier tasks). Paired intervals are seeded from the run's seed and the strategy,
 * so the same run gives the same frontier.
 *
 * @example
 * const frontier = summarizeFrontier(await runBestOfN({ ...options, config: { pool: 'sampled+templates', frontier: true } }));
 */
export function summarizeFrontier(run: BestOfNRun, strategy: FrontierStrategy = 'rm+templates'): BonFrontier | undefined {
  const sweep = run.frontier;
  if (sweep === undefined) return undefined;
  const swept = sweep.outcomes.filter((outcome) => (outcome.strategy ?? 'rm+templates') === strategy);
  const { n } = sweep;
  const byStrategy = new Map<OutcomeName, TaskOutcome[]>();
  for (const outcome of run.outcomes) {
    if (outcome.n !== n) continue;
    let list = byStrategy.get(outcome.strategy);
    if (list === undefined) byStrategy.set(outcome.strategy, (list = []));
    list.push(outcome);
  }
  const best = addBestFixed(byStrategy);
  if (best === undefined) return undefined;
  const perFamily = byStrategy.get('best-fixed-per-family')!;
  const { seed, bootstrapResamples } = run.config;
  const tasks = new Set(perFamily.map((outcome) => outcome.taskId)).size;
  if (sweep.objectives.some((_, point) => swept.filter((outcome) => outcome.point === point).length !== tasks)) return undefined;
  // The table's seed (`pairedSeed`): a point with the same outcomes as another, or as the table's row, gets the same interval.
  const versus = (outcomes: readonly Pick<TaskOutcome, 'taskId' | 'correct'>[]) => pairedDifference(outcomes, perFamily, pairedSeed(seed, n), bootstrapResamples);
  const fixed = [...byStrategy.keys()]
    .filter((name) => name.startsWith('fixed:'))
    .sort()
    .map((name) => ({ name: name.slice('fixed:'.length), outcomes: byStrategy.get(name)!, ...rowOf(byStrategy.get(name)!) }));
  const points: FrontierPoint[] = sweep.objectives.map((objective, point) => {
    const outcomes = swept.filter((outcome) => outcome.point === point);
    const row = rowOf(outcomes);
    const label = objectiveLabel(objective);
    return {
      label,
      objective,
      ...row,
      versusBestFixedPerFamily: versus(outcomes),
      dominatedBy: fixed.filter((entry) => entry.accuracy > row.accuracy && entry.tokens.executionPlusVerification < row.tokens.executionPlusVerification).map((entry) => entry.name),
    };
  });
  const matches = (difference: PairedDifference) => difference.ci[1] >= 0;
  const cheapestPoint = [...points].sort((a, b) => a.tokens.executionPlusVerification - b.tokens.executionPlusVerification).find((point) => matches(point.versusBestFixedPerFamily));
  const perFamilyRow = rowOf(perFamily);
  const cheapestFixed = fixed
    .map((entry) => ({ name: entry.name, executionPlusVerification: entry.tokens.executionPlusVerification, versusBestFixedPerFamily: versus(entry.outcomes) }))
    .filter((entry) => matches(entry.versusBestFixedPerFamily))
    .sort((a, b) => a.executionPlusVerification - b.executionPlusVerification)[0];
  const perFamilyCheapest = cheapestPerFamily(fixed, perFamily);
  const oracle = byStrategy.get('oracle');
  const tokensAt = cheapestPoint?.tokens.executionPlusVerification ?? null;
  return {
    n,
    tasks,
    strategy,
    points,
    fixed: fixed.map(({ outcomes: _outcomes, ...entry }) => entry),
    bestFixed: { name: best.overall, ...rowOf(byStrategy.get('best-fixed')!) },
    bestFixedPerFamily: { perSuite: best.perSuite, ...perFamilyRow },
    ...(oracle !== undefined && { oracle: rowOf(oracle) }),
    tokensAtBestFixedAccuracy: tokensAt,
    pointAtBestFixedAccuracy: cheapestPoint?.label ?? null,
    shareOfBestFixedPerFamilyTokens: tokensAt === null || perFamilyRow.tokens.executionPlusVerification === 0 ? null : round(tokensAt / perFamilyRow.tokens.executionPlusVerification, 4),
    cheapestFixedAtBestFixedAccuracy: cheapestFixed ?? null,
    cheapestFixedPerFamilyAtBestFixedAccuracy: {
      perSuite: perFamilyCheapest.perSuite,
      executionPlusVerification: rowOf(perFamilyCheapest.outcomes).tokens.executionPlusVerification,
      versusBestFixedPerFamily: versus(perFamilyCheapest.outcomes),
    },
    taskBlindMixAtBestFixedAccuracy: cheapestPoint === undefined ? null : mixAgainst(taskBlindMix(fixed, cheapestPoint.tokens.executionPlusVerification), swept.filter((outcome) => outcome.point === points.indexOf(cheapestPoint)), pairedSeed(seed, n), bootstrapResamples),
    undominated: points.every((point) => point.dominatedBy.length === 0),
  };
}

interface MixShares {
  perSuite: Record<string, Record<string, number>>;
  /** Expected correctness per task id. */
  scores: Map<string, number>;
  executionPlusVerification: number;
}

/**
 * The most accurate mix of fixed plans per family whose expected mean execution plus verification
 * tokens per task is at most `budget` (`TaskBlindMix`). A fractional knapsack: each family starts at
 * its cheapest fixed plan (the most accurate of the cheapest), its upper hull's steps are bought in
 * order of accuracy per token across families, and the last step bought is bought in part. Greedy
 * is exact here because each family's hull has falling slopes.
 */
export function taskBlindMix(fixed: readonly { name: string; outcomes: readonly TaskOutcome[] }[], budget: number): MixShares {
  const suites = [...new Set(fixed.flatMap((entry) => entry.outcomes.map((outcome) => outcome.suite)))].sort();
  const hulls = suites.map((suite) => {
    const plans = fixed.map((entry) => {
      const outcomes = entry.outcomes.filter((outcome) => outcome.suite === suite);
      return { name: entry.name, outcomes, ...rowOf(outcomes) };
    });
    const tasks = plans[0]!.outcomes.length;
    return { suite, tasks, hull: upperHull(plans) };
  });
  const totalTasks = hulls.reduce((sum, entry) => sum + entry.tasks, 0);
  // Bought whole steps per suite, and the fraction of the next one.
  const reached = hulls.map(() => ({ steps: 0, fraction: 0 }));
  let remaining = budget * totalTasks - hulls.reduce((sum, entry) => sum + entry.tasks * entry.hull[0]!.tokens.executionPlusVerification, 0);
  const steps = hulls.flatMap((entry, suite) =>
    entry.hull.slice(1).map((plan, step) => {
      const from = entry.hull[step]!;
      const cost = entry.tasks * (plan.tokens.executionPlusVerification - from.tokens.executionPlusVerification);
      return { suite, step, cost, slope: (plan.accuracy - from.accuracy) / (plan.tokens.executionPlusVerification - from.tokens.executionPlusVerification) };
    }),
  );
  // Steepest first; within a suite the hull's slopes fall strictly, so its steps come in order.
  steps.sort((a, b) => b.slope - a.slope || a.suite - b.suite || a.step - b.step);
  for (const step of steps) {
    if (remaining <= 0) break;
    const at = reached[step.suite]!;
    if (step.cost <= remaining) {
      at.steps++;
      remaining -= step.cost;
    } else {
      at.fraction = remaining / step.cost;
      remaining = 0;
    }
  }
  const perSuite: Record<string, Record<string, number>> = {};
  const scores = new Map<string, number>();
  let tokens = 0;
  hulls.forEach((entry, index) => {
    const { steps: bought, fraction } = reached[index]!;
    const shares: [typeof entry.hull[number], number][] = fraction > 0 ? [[entry.hull[bought]!, 1 - fraction], [entry.hull[bought + 1]!, fraction]] : [[entry.hull[bought]!, 1]];
    perSuite[entry.suite] = Object.fromEntries(shares.map(([plan, share]) => [plan.name, round(share, 4)]));
    for (const [plan, share] of shares) {
      tokens += entry.tasks * share * plan.tokens.executionPlusVerification;
      for (const outcome of plan.outcomes) scores.set(outcome.taskId, (scores.get(outcome.taskId) ?? 0) + share * (outcome.correct ? 1 : 0));
    }
  });
  return { perSuite, scores, executionPlusVerification: round(totalTasks === 0 ? 0 : tokens / totalTasks, 1) };
}

/** The upper hull of plans' (tokens, accuracy) from the cheapest: each next plan costs more and is more accurate, at a falling rate. */
function upperHull<T extends { name: string } & FrontierRow>(plans: readonly T[]): T[] {
  const sorted = [...plans].sort((a, b) => a.tokens.executionPlusVerification - b.tokens.executionPlusVerification || b.accuracy - a.accuracy || (a.name < b.name ? -1 : 1));
  const hull: T[] = [];
  const slope = (from: T, to: T) => (to.accuracy - from.accuracy) / (to.tokens.executionPlusVerification - from.tokens.executionPlusVerification);
  for (const plan of sorted) {
    if (hull.length > 0 && plan.accuracy <= hull[hull.length - 1]!.accuracy) continue;
    while (hull.length >= 2 && slope(hull[hull.length - 2]!, hull[hull.length - 1]!) <= slope(hull[hull.length - 1]!, plan)) hull.pop();
    hull.push(plan);
  }
  return hull;
}

function mixAgainst(mix: MixShares, point: readonly FrontierOutcome[], seed: number, resamples: number): TaskBlindMix {
  const mixScores = [...mix.scores].map(([taskId, score]) => ({ taskId, score }));
  const accuracy = mixScores.reduce((sum, entry) => sum + entry.score, 0) / Math.max(1, mixScores.length);
  return {
    perSuite: mix.perSuite,
    accuracy: round(accuracy, 4),
    executionPlusVerification: mix.executionPlusVerification,
    pointMinusMix: pairedScoreDifference(
      point.map((outcome) => ({ taskId: outcome.taskId, score: outcome.correct ? 1 : 0 })),
      mixScores,
      seed,
      resamples,
    ),
  };
}

/**
 * Per suite, the cheapest fixed plan (mean execution plus verification tokens on the suite's
 * tasks, the first by name on a tie) whose accuracy there equals best-fixed-per-family's, and its
 * outcomes on the suite's tasks.
 */
function cheapestPerFamily(fixed: readonly { name: string; outcomes: readonly TaskOutcome[] }[], perFamily: readonly TaskOutcome[]): { perSuite: Record<string, string>; outcomes: TaskOutcome[] } {
  const suites = [...new Set(perFamily.map((outcome) => outcome.suite))].sort();
  const perSuite: Record<string, string> = {};
  const outcomes: TaskOutcome[] = [];
  for (const suite of suites) {
    const onSuite = (list: readonly TaskOutcome[]) => list.filter((outcome) => outcome.suite === suite);
    const target = rowOf(onSuite(perFamily)).accuracy;
    let chosen: { name: string; outcomes: TaskOutcome[]; tokens: number } | undefined;
    for (const entry of fixed) {
      const list = onSuite(entry.outcomes);
      const row = rowOf(list);
      if (row.accuracy < target) continue;
      if (chosen === undefined || row.tokens.executionPlusVerification < chosen.tokens) chosen = { name: entry.name, outcomes: list, tokens: row.tokens.executionPlusVerification };
    }
    // best-fixed-per-family's own plan for the suite always qualifies.
    perSuite[suite] = chosen!.name;
    outcomes.push(...chosen!.outcomes);
  }
  return { perSuite, outcomes };
}

function rowOf(outcomes: readonly (TaskOutcome | FrontierOutcome)[]): FrontierRow {
  const count = outcomes.length;
  let correct = 0;
  let executionPlusVerification = 0;
  let total = 0;
  for (const outcome of outcomes) {
    if (outcome.correct) correct++;
    executionPlusVerification += outcome.tokens.execution + outcome.tokens.verification;
    total += outcome.tokens.orchestrator + outcome.tokens.execution + outcome.tokens.verification;
  }
  const interval = wilsonInterval(correct, count);
  const mean = (value: number) => round(count === 0 ? 0 : value / count, 1);
  return {
    accuracy: round(count === 0 ? 0 : correct / count, 4),
    ci: [round(interval.low, 4), round(interval.high, 4)],
    tokens: { executionPlusVerification: mean(executionPlusVerification), total: mean(total) },
  };
}
