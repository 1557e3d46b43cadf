import { describe, expect, it } from 'vitest';
import type { TaskOutcome } from './run-best-of-n.js';
import { summarizeSwitching } from './summarize-switching.js';

const tokens = { orchestrator: 0, execution: 0, verification: 0 };

/** One outcome: `kind` is the pick's kind (a template name or `sample:...`). */
function outcome(taskId: string, suite: string, strategy: TaskOutcome['strategy'], correct: boolean, kind?: string): TaskOutcome {
  return { taskId, suite, n: 8, strategy, correct, executions: 1, tokens, ...(kind !== undefined && { pick: { index: 0, source: kind.startsWith('sample:') ? 'sample' : 'template', kind } }) };
}

describe('summarizeSwitching', () => {
  it('counts switches away from the family best fixed plan, and their wins and losses task by task', () => {
    const outcomes: TaskOutcome[] = [];
    // arith: search is right on t1 t2 t3, cot on t1 only: search is the best fixed plan.
    const fixed: [string, boolean, boolean][] = [
      ['t1', true, true],
      ['t2', true, false],
      ['t3', true, false],
      ['t4', false, false],
    ];
    for (const [task, search, cot] of fixed) {
      outcomes.push(outcome(task, 'arith', 'fixed:search', search, 'search'), outcome(task, 'arith', 'fixed:cot', cot, 'cot'));
    }
    // rm-templates-only keeps search on t1, switches to cot on t2 (a loss) and t4 (a tie), to a sample on t3 (a tie).
    outcomes.push(
      outcome('t1', 'arith', 'rm-templates-only', true, 'search'),
      outcome('t2', 'arith', 'rm-templates-only', false, 'cot'),
      outcome('t3', 'arith', 'rm-templates-only', true, 'sample:sc(samples=7)'),
      outcome('t4', 'arith', 'rm-templates-only', true, 'cot'),
    );
    // oracle settled on nothing on t4; rm is not in the default list's way.
    outcomes.push(outcome('t4', 'arith', 'oracle', false));
    const [row, ...rest] = summarizeSwitching({ outcomes }, 8);
    expect(rest).toEqual([]);
    expect(row).toEqual({
      strategy: 'rm-templates-only',
      suite: 'arith',
      n: 8,
      bestFixed: 'search',
      tasks: 4,
      switched: 3,
      wins: 1,
      losses: 1,
      kinds: { cot: 2, 'sample:sc(samples=7)': 1 },
    });
    expect(summarizeSwitching({ outcomes }, 4)).toEqual([]);
  });

  it('takes the first template in sorted order when two tie, as best-fixed-per-family does', () => {
    const outcomes = [outcome('t1', 'qa', 'fixed:zeta', true, 'zeta'), outcome('t1', 'qa', 'fixed:alpha', true, 'alpha'), outcome('t1', 'qa', 'rm', true, 'zeta')];
    expect(summarizeSwitching({ outcomes }, 8)[0]).toMatchObject({ bestFixed: 'alpha', switched: 1, wins: 0, losses: 0 });
  });
});
