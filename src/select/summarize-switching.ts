import type { BestOfNRun, TaskOutcome } from './run-best-of-n.js';
import type { StrategyName } from './selection-strategy.js';

/** The strategies whose picks the switching table follows by default: the reward model as a selector and as a router. */
export const SWITCHING_STRATEGIES: readonly StrategyName[] = ['rm', 'rm+templates', 'rm-templates-only'];

/**
 * How often a strategy's pick in one family differs in kind from the family's best fixed plan,
 * and whether those switches win or lose, task by task against that fixed plan's execution on
 * the same task (issue 21).
 */
export interface SwitchingSummary {
  strategy: StrategyName;
  /** The family (task suite). */
  suite: string;
  n: number;
  /** The template best on the family's tasks (chosen after the fact, as `best-fixed-per-family`). */
  bestFixed: string;
  /** Tasks of the family with both the strategy's pick and the fixed plan's outcome. */
  tasks: number;
  /** Tasks where the pick is of another kind than `bestFixed`. */
  switched: number;
  /** Switched tasks the strategy got right and the fixed plan wrong. */
  wins: number;
  /** Switched tasks the strategy got wrong and the fixed plan right. */
  losses: number;
  /** Kinds picked instead of `bestFixed`, with their task counts, most frequent first. */
  kinds: Record<string, number>;
}

const FIXED_PREFIX = 'fixed:';

/**
 * The switching table at N = `n`, one row per family and strategy (`SWITCHING_STRATEGIES` by
 * default, those that ran), from a run with the template pool (it needs the `fixed:<name>`
 * outcomes and the strategies' picks); empty without templates. The family's best fixed plan is
 * chosen as `best-fixed-per-family` chooses it: highest accuracy on the family's tasks, the first
 * name in sorted order on a tie.
 *
 * @example
 * summarizeSwitching(run, 8).find((row) => row.strategy === 'rm-templates-only' && row.suite === 'arith')
 */
export function summarizeSwitching(run: Pick<BestOfNRun, 'outcomes'>, n: number, strategies: readonly StrategyName[] = SWITCHING_STRATEGIES): SwitchingSummary[] {
  const atN = run.outcomes.filter((outcome) => outcome.n === n);
  const suites = [...new Set(atN.map((outcome) => outcome.suite))].sort();
  const rows: SwitchingSummary[] = [];
  for (const suite of suites) {
    const inSuite = atN.filter((outcome) => outcome.suite === suite);
    const bestFixed = bestFixedName(inSuite);
    if (bestFixed === undefined) continue;
    const fixedCorrect = new Map(inSuite.filter((outcome) => outcome.strategy === `${FIXED_PREFIX}${bestFixed}`).map((outcome) => [outcome.taskId, outcome.correct]));
    for (const strategy of strategies) {
      const picked = inSuite.filter((outcome): outcome is TaskOutcome & { pick: NonNullable<TaskOutcome['pick']> } => outcome.strategy === strategy && outcome.pick !== undefined && fixedCorrect.has(outcome.taskId));
      if (picked.length === 0) continue;
      const row: SwitchingSummary = { strategy, suite, n, bestFixed, tasks: picked.length, switched: 0, wins: 0, losses: 0, kinds: {} };
      for (const outcome of picked) {
        if (outcome.pick.kind === bestFixed) continue;
        row.switched += 1;
        row.kinds[outcome.pick.kind] = (row.kinds[outcome.pick.kind] ?? 0) + 1;
        const fixed = fixedCorrect.get(outcome.taskId)!;
        if (outcome.correct && !fixed) row.wins += 1;
        else if (!outcome.correct && fixed) row.losses += 1;
      }
      row.kinds = Object.fromEntries(Object.entries(row.kinds).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
      rows.push(row);
    }
  }
  return rows;
}

/** The fixed template most accurate on these outcomes; the first name in sorted order wins a tie. */
function bestFixedName(outcomes: readonly TaskOutcome[]): string | undefined {
  const tally = new Map<string, { correct: number; total: number }>();
  for (const outcome of outcomes) {
    if (!outcome.strategy.startsWith(FIXED_PREFIX)) continue;
    const entry = tally.get(outcome.strategy) ?? { correct: 0, total: 0 };
    entry.total += 1;
    if (outcome.correct) entry.correct += 1;
    tally.set(outcome.strategy, entry);
  }
  let best: string | undefined;
  let bestAccuracy = -1;
  for (const name of [...tally.keys()].sort()) {
    const { correct, total } = tally.get(name)!;
    const accuracy = correct / Math.max(1, total);
    if (accuracy > bestAccuracy) [best, bestAccuracy] = [name, accuracy];
  }
  return best?.slice(FIXED_PREFIX.length);
}
