import { deriveSeed, Rng, type Task } from '../core/index.js';
import type { PlanOutcome } from './cost-head.js';
import { trainTemplateRouter, type TemplateRouter } from './template-router.js';

/** Bootstrap routers fitted per round to judge which templates could still be a task's best. */
export const ROUTER_BOOTSTRAP_REPLICATES = 20;

/** What `chooseTemplatesByRouter` returns. */
export interface RouterTemplateChoice {
  /** Per task id, the chosen templates by position in `names`, ascending. */
  chosen: Map<string, number[]>;
  /**
   * Per task id, the execution tokens the chosen templates are expected to spend together: the
   * router's per-task estimate of each (`TemplateRouter.executionTokens`), or for a template it does
   * not price the mean of its episodes among the outcomes, or, for one with none, the dearest of
   * those means (what an active collection's budget reads before the round is run).
   */
  expectedExecutionTokens: Map<string, number>;
}

/** What `chooseTemplatesByRouter` needs besides the outcomes. */
export interface RouterTemplateChoiceSettings {
  /** The library's template names, in library order: the positions returned index it. */
  names: readonly string[];
  /** At most this many templates per task. */
  perTask: number;
  seed: number;
  /** @default ROUTER_BOOTSTRAP_REPLICATES */
  replicates?: number;
}

/**
 * Per task, the templates whose outcomes could change the template router's choice there (issue
 * 22's active collection): a router fitted on `outcomes` (the graded template episodes of the
 * earlier rounds) and `replicates` more, each fitted on a bootstrap draw of those episodes' tasks
 * (a task's templates drawn together, since they ran on one question). Per task it keeps, by
 * position in `names`, at most `perTask` of:
 * 1. the template the router rates most likely to succeed (the first in library order on a tie,
 *    as bon's router does): its own estimate improves with every episode, and it is the one the
 *    others must beat;
 * 2. every template the router has not learnt (fewer than `MIN_ROUTER_EPISODES` graded episodes),
 *    in a seeded order per task: bon routes only when the router knows every template of the pool;
 * 3. the templates that may beat the first by the bootstrap: those whose success probability minus
 *    the first's, over the replicates, has mean plus one sd above 0, the likeliest first.
 *
 * So a task whose best template the router is sure of runs that template alone, and the budget goes
 * where the router is unsure. The router reads only the task's suite and routing facts, so choosing
 * by them does not bias its fit (the choice depends on nothing the outcomes would change).
 * Deterministic for the same outcomes and seed.
 */
export function chooseTemplatesByRouter(outcomes: readonly PlanOutcome[], tasks: readonly Task[], settings: RouterTemplateChoiceSettings): RouterTemplateChoice {
  const { names, perTask, seed, replicates = ROUTER_BOOTSTRAP_REPLICATES } = settings;
  const graded = outcomes.filter((outcome) => outcome.template !== undefined && outcome.correct !== undefined);
  const router = trainTemplateRouter(graded)?.router;
  const byTask = new Map<string, PlanOutcome[]>();
  for (const outcome of graded) {
    const list = byTask.get(outcome.taskId) ?? [];
    list.push(outcome);
    byTask.set(outcome.taskId, list);
  }
  const taskIds = [...byTask.keys()].sort();
  const bootstrap: TemplateRouter[] = [];
  if (router !== undefined) {
    for (let replicate = 0; replicate < replicates; replicate++) {
      const rng = new Rng(deriveSeed(seed, `router-bootstrap:${replicate}`));
      const drawn = taskIds.flatMap(() => byTask.get(rng.pick(taskIds)) ?? []);
      const fitted = trainTemplateRouter(drawn)?.router;
      if (fitted !== undefined) bootstrap.push(fitted);
    }
  }
  const meanTokens = meanExecutionTokens(graded, names);
  const dearest = Math.max(0, ...meanTokens.flatMap((mean) => (mean === undefined ? [] : [mean])));
  const chosen = new Map<string, number[]>();
  const expectedExecutionTokens = new Map<string, number>();
  for (const task of tasks) {
    const suite = task.suite ?? '';
    const probabilities = router?.probabilities(task.question, suite, names) ?? names.map(() => undefined);
    const known = [...names.keys()].filter((position) => probabilities[position] !== undefined);
    const seededOrder = (position: number) => deriveSeed(seed, `${task.id}#unknown-template:${names[position]}`);
    const unknown = [...names.keys()].filter((position) => probabilities[position] === undefined).sort((a, b) => seededOrder(a) - seededOrder(b) || a - b);
    const choose = (positions: number[]) => {
      const estimates = router?.executionTokens(task.question, suite, names) ?? [];
      chosen.set(task.id, positions.sort((a, b) => a - b));
      expectedExecutionTokens.set(task.id, positions.reduce((sum, position) => sum + (estimates[position] ?? meanTokens[position] ?? dearest), 0));
    };
    if (known.length === 0) {
      choose(unknown.slice(0, perTask));
      continue;
    }
    const first = known.reduce((best, position) => (probabilities[position]! > probabilities[best]! ? position : best), known[0]!);
    const replicated = bootstrap.map((fitted) => fitted.probabilities(task.question, suite, names));
    const challengers = known
      .filter((position) => position !== first)
      .map((position) => {
        const differences = replicated.flatMap((estimates) => (estimates[position] === undefined || estimates[first] === undefined ? [] : [estimates[position]! - estimates[first]!]));
        return { position, chance: optimisticDifference(differences) };
      })
      .filter((challenger) => challenger.chance > 0)
      .sort((a, b) => b.chance - a.chance || a.position - b.position);
    choose([first, ...unknown, ...challengers.map((challenger) => challenger.position)].slice(0, perTask));
  }
  return { chosen, expectedExecutionTokens };
}

/** Per name, the mean execution tokens of its episodes among the outcomes; undefined without any. */
function meanExecutionTokens(outcomes: readonly PlanOutcome[], names: readonly string[]): (number | undefined)[] {
  return names.map((name) => {
    const own = outcomes.filter((outcome) => outcome.template === name);
    return own.length === 0 ? undefined : own.reduce((sum, outcome) => sum + outcome.executionTokens, 0) / own.length;
  });
}

/** Mean plus one sd of the bootstrap differences; with fewer than two, nothing is known against the first, so any chance counts. */
function optimisticDifference(differences: readonly number[]): number {
  if (differences.length < 2) return Infinity;
  const mean = differences.reduce((sum, value) => sum + value, 0) / differences.length;
  const variance = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (differences.length - 1);
  return mean + Math.sqrt(variance);
}
