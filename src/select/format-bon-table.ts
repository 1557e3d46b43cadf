import { switchesPaid, type ReadingGain, type SampleSwitching } from '../rm/index.js';
import { outcomeOrder, type BonTable } from './summarize-best-of-n.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}`;
const tokens = (value: number) => Math.round(value).toString();
/** Tokens in a few characters: `12686` -> `12.7k`, `2380000` -> `2.38M`. */
const compactTokens = (value: number) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : value >= 1e3 ? `${(value / 1e3).toFixed(1)}k` : value.toFixed(0));

/**
 * The text table `orchrm bon` prints for one N: accuracy (percent) with its 95% Wilson interval,
 * mean tokens per task by role, executions per task, then the paired differences (points) and
 * the share of the single-to-oracle gap that `rm` closes.
 */
export function formatBonTable(table: BonTable): string {
  const header = ['strategy', 'acc%', '95% CI', 'orchestrator', 'execution', 'verification', 'total', 'exec/task'];
  const rows: string[][] = [];
  for (const name of outcomeOrder(Object.keys(table.strategies) as (keyof BonTable['strategies'])[])) {
    const summary = table.strategies[name];
    if (summary === undefined) continue;
    const perSuite = name === 'best-fixed-per-family' ? table.bestFixed?.perSuite : name === 'train-best-fixed-per-family' ? table.bestFixed?.perSuiteFromTraining : undefined;
    const which = name === 'best-fixed' ? table.bestFixed?.overall : perSuite && Object.entries(perSuite).map(([suite, template]) => `${suite}: ${template}`).join(', ');
    rows.push([
      name + (which ? ` (${which})` : '') + (summary.judgeFailures !== undefined ? ` (${summary.judgeFailures} unreadable)` : ''),
      percent(summary.accuracy),
      `[${percent(summary.ci[0])}, ${percent(summary.ci[1])}]`,
      tokens(summary.tokens.orchestrator),
      tokens(summary.tokens.execution),
      tokens(summary.tokens.verification),
      tokens(summary.tokens.total),
      summary.executionsPerTask.toFixed(2),
    ]);
  }
  const lines = [`N = ${table.n}, ${table.tasks} tasks (tokens: mean per task)`, ...alignColumns([header, ...rows])];
  const paired = Object.entries(table.paired);
  if (paired.length > 0) {
    lines.push('', 'paired differences (points, 95% paired bootstrap over tasks)');
    lines.push(...alignColumns(paired.map(([name, difference]) => [name, signed(difference.diff), `[${signed(difference.ci[0])}, ${signed(difference.ci[1])}]`])));
  }
  const { single, rm, oracle } = table.strategies;
  if (single !== undefined && rm !== undefined && oracle !== undefined && oracle.accuracy > single.accuracy) {
    const closed = (rm.accuracy - single.accuracy) / (oracle.accuracy - single.accuracy);
    lines.push('', `rm closes ${(closed * 100).toFixed(0)}% of the single -> oracle gap`);
  }
  return `${lines.join('\n')}\n`;
}

/** Pads every column to its widest cell; numbers right-aligned, the first column left. */
function alignColumns(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}

/** A frontier row as `formatFrontierLines` reads it: accuracy and mean execution + verification tokens per task. */
interface FrontierRowText {
  accuracy: number;
  tokens: { executionPlusVerification: number };
}

/** What `formatFrontierLines` reads of a frontier (`BonFrontier`, or results.json's copy of it). */
export interface FrontierForText {
  points: readonly (FrontierRowText & { label: string; versusBestFixedPerFamily: { diff: number; ci: readonly [number, number] }; dominatedBy: readonly string[] })[];
  fixed?: readonly (FrontierRowText & { name: string })[];
  bestFixedPerFamily: FrontierRowText;
  oracle?: FrontierRowText;
  tokensAtBestFixedAccuracy: number | null;
  pointAtBestFixedAccuracy: string | null;
  shareOfBestFixedPerFamilyTokens: number | null;
  cheapestFixedAtBestFixedAccuracy?: { name: string; executionPlusVerification: number } | null;
  taskBlindMixAtBestFixedAccuracy?: { perSuite: Record<string, Record<string, number>>; accuracy: number; executionPlusVerification: number; pointMinusMix: { diff: number; ci: readonly [number, number] } } | null;
}

/** A task-blind mix of fixed plans per family in words: `direct for arith; search on 95.5% of multihop's tasks, direct on 4.5%`. */
export function describeTaskBlindMix(perSuite: Record<string, Record<string, number>>): string {
  return Object.entries(perSuite)
    .map(([suite, shares]) => {
      const plans = Object.entries(shares).sort((a, b) => b[1] - a[1]);
      return plans.length === 1 ? `${plans[0]![0]} for ${suite}` : `${plans.map(([name, share]) => `${name} on ${percent(share)}%`).join(', ')} of ${suite}'s tasks`;
    })
    .join('; ');
}

/**
 * A cost-accuracy frontier as text lines, for `orchrm bon --frontier` and the demo's summary:
 * the title, each operating point (accuracy, mean execution + verification tokens per task, its
 * paired difference with best-fixed-per-family in points, the fixed plans that dominate it), with
 * `withFixedPlans` every fixed plan and the oracle, then best-fixed-per-family and where the
 * frontier first matches it.
 */
export function formatFrontierLines(frontier: FrontierForText, title: string, { withFixedPlans = false }: { withFixedPlans?: boolean } = {}): string[] {
  const row = (label: string, accuracy: number, executionPlusVerification: number) => `  ${label.padEnd(24)} ${`${percent(accuracy)}%`.padStart(6)} ${compactTokens(executionPlusVerification).padStart(8)}`;
  const lines = [title];
  for (const point of frontier.points) {
    const { diff, ci } = point.versusBestFixedPerFamily;
    const dominated = point.dominatedBy.length > 0 ? `   dominated by ${point.dominatedBy.join(', ')}` : '';
    lines.push(`${row(point.label, point.accuracy, point.tokens.executionPlusVerification)}   ${signed(diff)} [${signed(ci[0])}, ${signed(ci[1])}]${dominated}`);
  }
  if (withFixedPlans) for (const fixed of frontier.fixed ?? []) lines.push(row(`fixed:${fixed.name}`, fixed.accuracy, fixed.tokens.executionPlusVerification));
  lines.push(row('best-fixed-per-family', frontier.bestFixedPerFamily.accuracy, frontier.bestFixedPerFamily.tokens.executionPlusVerification));
  if (withFixedPlans && frontier.oracle !== undefined) lines.push(row('oracle', frontier.oracle.accuracy, frontier.oracle.tokens.executionPlusVerification));
  const at = frontier.tokensAtBestFixedAccuracy;
  const cheapestFixed = frontier.cheapestFixedAtBestFixedAccuracy;
  lines.push(
    at === null
      ? '  no operating point matches best-fixed-per-family (every paired interval below 0)'
      : `  matches best-fixed-per-family at ${compactTokens(at)} tokens (${frontier.pointAtBestFixedAccuracy}): ${percent(frontier.shareOfBestFixedPerFamilyTokens ?? 0)}% of its tokens${cheapestFixed ? `; the cheapest fixed plan that matches it, ${cheapestFixed.name}, costs ${compactTokens(cheapestFixed.executionPlusVerification)}` : ''}`,
  );
  const mix = frontier.taskBlindMixAtBestFixedAccuracy;
  if (mix) {
    const { diff, ci } = mix.pointMinusMix;
    lines.push(`  the best task-blind mix of fixed plans per family at ${compactTokens(mix.executionPlusVerification)} tokens (${describeTaskBlindMix(mix.perSuite)}) reaches ${percent(mix.accuracy)}%; ${frontier.pointAtBestFixedAccuracy} minus the mix ${signed(diff)} [${signed(ci[0])}, ${signed(ci[1])}]`);
  }
  return lines;
}

/** Prices at which `readingGainLine` shows the estimate: three points of its grid, a decade apart (read exactly, no interpolation). */
const READING_GAIN_SHOWN = [1e-6, 1e-5, 1e-4] as const;

/**
 * What rm+templates weighs under a price (`estimateReadingGain`), as one line under its frontier in
 * `orchrm bon --frontier` and the demo's summary: per suite, the gain reading the samples is
 * expected to add at three prices of the estimate's grid. Only suites where samples may replace the
 * router's pick (`switching`, when the model keeps that record) are shown; undefined when none may,
 * as rm+templates then reads no sample under any price.
 */
export function readingGainLine(gain: ReadingGain, switching?: SampleSwitching): string | undefined {
  const read = gain.suites.filter((suite) => switching === undefined || switching.suites.some((entry) => entry.suite === suite.suite && switchesPaid(entry)));
  if (read.length === 0) return undefined;
  const shown = READING_GAIN_SHOWN.filter((price) => gain.prices.includes(price));
  const perSuite = read.map((suite) => `${suite.suite} ${shown.map((price) => suite.gains[gain.prices.indexOf(price)]!.toFixed(3)).join(' / ')}`);
  const tasks = read.reduce((sum, suite) => sum + suite.tasks, 0);
  return `  under a price it reads the sampled plans only where the reward model expects them to add more than reading them costs; the gain it expects on a task (probability less price x tokens, over the router's priced pick; from ${tasks} training tasks) at ${shown.map((price) => `price=${price}`).join(' / ')}: ${perSuite.join(', ')}`;
}

/**
 * Where rm+templates lets a sampled plan replace the template router's pick (`replaySampleSwitches`,
 * `switchesPaid`), as one line for `orchrm bon`, `orchrm rm train` and the demo's summary: per suite,
 * the switches its replay made on the collection's validation tasks, how they fared, and the verdict.
 */
export function sampleSwitchingLine(record: SampleSwitching): string {
  const perSuite = record.suites.map(
    (entry) => `${entry.suite} ${entry.switches} switch${entry.switches === 1 ? '' : 'es'} on ${entry.tasks} task${entry.tasks === 1 ? '' : 's'}, ${entry.wins} won, ${entry.losses} lost: ${switchesPaid(entry) ? 'samples may replace it' : 'the router alone'}`,
  );
  return `  rm+templates lets a sampled plan replace the router's pick only on a suite where such switches paid on the collection's validation tasks (wins - losses > sqrt(wins + losses)); elsewhere it is the router alone and writes no samples: ${perSuite.length === 0 ? 'no validation task had both, so the router alone everywhere' : `${perSuite.join('; ')}; any other suite: the router alone`}`;
}
