/**
 * The least evidence a verdict (held, beats, did not hold) is given on (issue 21): with fewer
 * held-out tasks or fewer pairs an interval is too wide, and too dependent on which few tasks
 * were drawn, to say anything; the verdict is then "too few to judge". A 29-task held-out set
 * once gave +8.1 [+0.5, +17.0] where a 248-task set of the same world gave +0.7.
 */
export const MIN_VERDICT_TASKS = 50;
/** See `MIN_VERDICT_TASKS`. */
export const MIN_VERDICT_PAIRS = 200;

/** The words every verdict uses when the sample is below those sizes. */
export const TOO_FEW_TO_JUDGE = 'too few to judge';

/**
 * Why the evidence is too small for a verdict, or undefined when it suffices: fewer than
 * `MIN_VERDICT_TASKS` tasks, or (when pairs are counted) fewer than `MIN_VERDICT_PAIRS` pairs.
 *
 * @example
 * tooFewToJudge({ tasks: 1, pairs: 2 }) // '2 pairs on 1 task; a verdict needs at least 200 pairs on 50 tasks'
 */
export function tooFewToJudge(sample: { tasks: number; pairs?: number }): string | undefined {
  const { tasks, pairs } = sample;
  const fewTasks = tasks < MIN_VERDICT_TASKS;
  const fewPairs = pairs !== undefined && pairs < MIN_VERDICT_PAIRS;
  if (!fewTasks && !fewPairs) return undefined;
  const taskWord = `${tasks} task${tasks === 1 ? '' : 's'}`;
  const had = pairs === undefined ? taskWord : `${pairs} pair${pairs === 1 ? '' : 's'} on ${taskWord}`;
  const needed = pairs === undefined ? `${MIN_VERDICT_TASKS} tasks` : `${MIN_VERDICT_PAIRS} pairs on ${MIN_VERDICT_TASKS} tasks`;
  return `${had}; a verdict needs at least ${needed}`;
}
