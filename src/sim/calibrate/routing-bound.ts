/**
 * How few execution tokens a router could spend at best-fixed-per-family's accuracy, by what it
 * knows of a task (issue 22's "cost-aware selection at <= 50% of best-fixed-per-family's tokens"):
 * a question about the world, answered from executions, before any model is trained. A router
 * that knows only the family is a fixed plan per family; one that knows the task type (a bucket of
 * a task axis) or the type and size is what a model reading the text could learn at best; one that
 * knows the task is told each kind's success rate and tokens on that very task.
 */

/** One execution of a kind on a task. */
export interface BoundExecution {
  correct: boolean;
  executionTokens: number;
}

export interface RoutingBoundInput {
  /** Per task, its family and the buckets a router may know (undefined: the task has no such axis). */
  tasks: readonly { family: string; type?: string; size?: string }[];
  kinds: readonly string[];
  /** `executions[kind][task]`: every execution of the kind on the task, the same count everywhere. */
  executions: readonly (readonly (readonly BoundExecution[])[])[];
}

export type RouterKnowledge = 'family' | 'task type' | 'task type and size' | 'task';

export interface RoutingBoundPoint {
  pricePerToken: number;
  accuracy: number;
  executionTokens: number;
  /** `executionTokens` over best-fixed-per-family's. */
  share: number;
}

export interface RoutingBound {
  /** Executions of each kind per task that a router's estimates come from (the first half). */
  estimateExecutions: number;
  /** Executions that judge its picks and best-fixed-per-family (the second half). */
  judgeExecutions: number;
  /** Each family's most accurate kind on the judging executions (chosen afterwards, as `bon` does). */
  bestFixedPerFamily: { kinds: Record<string, string>; accuracy: number; executionTokens: number };
  /**
   * Per router, the cheapest point of its price sweep whose accuracy reaches best-fixed-per-family's
   * (point estimates over the judging executions); null where none does.
   */
  routers: { knows: RouterKnowledge; point: RoutingBoundPoint | null }[];
}

/** Prices per execution token swept: 0, then 1e-7 to 1e-3 at 15 steps a decade. */
export const BOUND_PRICES: readonly number[] = [0, ...Array.from({ length: 61 }, (_, step) => 1e-7 * 10 ** (step / 15))];

const KNOWLEDGE: readonly RouterKnowledge[] = ['family', 'task type', 'task type and size', 'task'];

interface Tally {
  correct: number;
  tokens: number;
  count: number;
}

/**
 * The routing bound of a calibration: every router estimates each kind's success rate and tokens
 * on a task from the first half of the executions (a bucket router from the other tasks of the
 * task's bucket, so it never sees the task itself; the task router from the task's own), picks by
 * expected success minus a price per token, and is judged on the second half. Undefined with fewer
 * than two executions per kind and task.
 */
export function routingBound(input: RoutingBoundInput): RoutingBound | undefined {
  const { tasks, kinds, executions } = input;
  const perTask = executions[0]?.[0]?.length ?? 0;
  if (perTask < 2 || tasks.length === 0) return undefined;
  const estimateCount = Math.floor(perTask / 2);
  const tally = (list: readonly BoundExecution[]): Tally => ({
    correct: list.reduce((sum, execution) => sum + (execution.correct ? 1 : 0), 0),
    tokens: list.reduce((sum, execution) => sum + execution.executionTokens, 0),
    count: list.length,
  });
  const estimate = executions.map((byTask) => byTask.map((list) => tally(list.slice(0, estimateCount))));
  const judged = executions.map((byTask) => byTask.map((list) => tally(list.slice(estimateCount))));

  const families = [...new Set(tasks.map((task) => task.family))];
  const bestKinds: Record<string, string> = {};
  let bestCorrect = 0;
  let bestTokens = 0;
  for (const family of families) {
    const members = tasks.flatMap((task, index) => (task.family === family ? [index] : []));
    let best = 0;
    let bestSum = -1;
    kinds.forEach((_, kind) => {
      const sum = members.reduce((total, task) => total + judged[kind]![task]!.correct / judged[kind]![task]!.count, 0);
      if (sum > bestSum) [best, bestSum] = [kind, sum];
    });
    bestKinds[family] = kinds[best]!;
    bestCorrect += bestSum;
    bestTokens += members.reduce((total, task) => total + judged[best]![task]!.tokens / judged[best]![task]!.count, 0);
  }
  const bestAccuracy = bestCorrect / tasks.length;
  const bestExecutionTokens = bestTokens / tasks.length;

  const routers = KNOWLEDGE.map((knows) => {
    const estimates = estimatesFor(knows, tasks, kinds, estimate);
    let point: RoutingBoundPoint | null = null;
    for (const pricePerToken of BOUND_PRICES) {
      let correct = 0;
      let tokens = 0;
      tasks.forEach((_, task) => {
        let pick = 0;
        let pickValue = Number.NEGATIVE_INFINITY;
        kinds.forEach((_, kind) => {
          const { success, executionTokens } = estimates[task]![kind]!;
          const value = success - pricePerToken * executionTokens;
          if (value > pickValue) [pick, pickValue] = [kind, value];
        });
        const outcome = judged[pick]![task]!;
        correct += outcome.correct / outcome.count;
        tokens += outcome.tokens / outcome.count;
      });
      const accuracy = correct / tasks.length;
      const executionTokens = tokens / tasks.length;
      if (accuracy >= bestAccuracy && (point === null || executionTokens < point.executionTokens)) {
        point = { pricePerToken, accuracy, executionTokens, share: bestExecutionTokens === 0 ? 1 : executionTokens / bestExecutionTokens };
      }
    }
    return { knows, point };
  });
  return {
    estimateExecutions: estimateCount,
    judgeExecutions: perTask - estimateCount,
    bestFixedPerFamily: { kinds: bestKinds, accuracy: bestAccuracy, executionTokens: bestExecutionTokens },
    routers,
  };
}

/** Per task and kind, the success rate and mean tokens a router with this knowledge expects. */
function estimatesFor(knows: RouterKnowledge, tasks: RoutingBoundInput['tasks'], kinds: readonly string[], estimate: readonly (readonly Tally[])[]) {
  const keyOf = (task: RoutingBoundInput['tasks'][number]): string => {
    if (knows === 'family') return task.family;
    if (knows === 'task type') return `${task.family}\u0000${task.type ?? ''}`;
    return `${task.family}\u0000${task.type ?? ''}\u0000${task.size ?? ''}`;
  };
  // Per bucket and kind, the sum over its tasks; a task's estimate leaves its own tally out.
  const sums = new Map<string, Tally[]>();
  const familySums = new Map<string, Tally[]>();
  const add = (map: Map<string, Tally[]>, key: string, task: number) => {
    const entry = map.get(key) ?? kinds.map(() => ({ correct: 0, tokens: 0, count: 0 }));
    kinds.forEach((_, kind) => {
      const own = estimate[kind]![task]!;
      entry[kind]!.correct += own.correct;
      entry[kind]!.tokens += own.tokens;
      entry[kind]!.count += own.count;
    });
    map.set(key, entry);
  };
  tasks.forEach((task, index) => {
    add(sums, keyOf(task), index);
    add(familySums, task.family, index);
  });
  return tasks.map((task, index) =>
    kinds.map((_, kind) => {
      const own = estimate[kind]![index]!;
      if (knows === 'task') return { success: own.correct / own.count, executionTokens: own.tokens / own.count };
      const others = (map: Map<string, Tally[]>, key: string) => {
        const sum = map.get(key)![kind]!;
        return { correct: sum.correct - own.correct, tokens: sum.tokens - own.tokens, count: sum.count - own.count };
      };
      // A task alone in its bucket falls back to its family's other tasks.
      let rest = others(sums, keyOf(task));
      if (rest.count === 0) rest = others(familySums, task.family);
      return rest.count === 0 ? { success: 0, executionTokens: 0 } : { success: rest.correct / rest.count, executionTokens: rest.tokens / rest.count };
    }),
  );
}
