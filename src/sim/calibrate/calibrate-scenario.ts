import pLimit from 'p-limit';
import { deriveSeed, type Episode, type EventSink, type ProgressEvent, Rng, type Task } from '../../core/index.js';
import { runEpisode } from '../../exec/index.js';
import type { SimEnvironment } from '../environment.js';
import { samplePlan } from '../policy/index.js';
import { FIXED_PLAN_KINDS, fixedKindCheckpoint, type FixedPlanKind } from './fixed-plan-kinds.js';
import { type RoutingBound, routingBound } from './routing-bound.js';

export interface CalibrationOptions {
  /** Test-split tasks executed. @default 200 */
  tasks?: number;
  /** Plans sampled from the base policy per task, for oracle@N. @default 8 */
  plansPerTask?: number;
  /** @default 0 */
  seed?: number;
  /** Executions of every fixed kind on every task (each with its own seed); more average out luck in the per-bucket bests. @default 1 */
  executionsPerKind?: number;
  /** Episodes in flight. @default 16 */
  concurrency?: number;
  /** Progress of stage `calibrate`, after each episode. */
  events?: EventSink<ProgressEvent>;
}

/** Whether the best fixed plan depends on the task within a family: by task type (an axis bucket). */
export interface WithinFamilyDependence {
  /** The task axis whose values make the buckets (arith `depth`, multihop `hops`, hotpot `type`). */
  axis: string;
  familyBest: { kind: string; accuracy: number };
  buckets: {
    value: string;
    tasks: number;
    bestKind: string;
    accuracy: number;
    familyBestAccuracy: number;
    /** Every kind's accuracy on the bucket's tasks. */
    kindAccuracy: Record<string, number>;
  }[];
  /** Points: accuracy of each bucket's best kind (task-weighted) minus the family's best kind. */
  gap: number;
  /** Share of the family's tasks whose bucket's best kind is not the family's best kind. */
  differingShare: number;
}

interface KindResult {
  accuracy: number;
  meanExecutionTokens: number;
  perFamily: Record<string, number>;
}

export interface CalibrationReport {
  scenario: string;
  seed: number;
  tasks: number;
  tasksPerFamily: Record<string, number>;
  /** Points: per-family best fixed plan kind, task-weighted, minus the best single kind used everywhere. */
  bestFixedPlanGap: number;
  /** Points: oracle@N of the base policy (any of N plans correct) minus its single-plan accuracy. */
  baseVsOracleGap: number;
  /** Mean execution tokens of the costliest plan kind over the cheapest kind that executes anything. */
  execTokenSpread: number;
  /** Mean plan-writing tokens over mean execution tokens, base policy. */
  planTokenShare: number;
  base: { checkpoint: string; plansPerTask: number; accuracy: number; oracleAtN: number; meanOrchestratorTokens: number; meanExecutionTokens: number };
  bestSingleKind: { kind: string; accuracy: number };
  bestKindPerFamily: Record<string, { kind: string; accuracy: number }>;
  /**
   * Points: per task type (bucket of a task axis), the best fixed kind, task-weighted, minus each
   * family's best fixed kind. Above 0 when the right plan depends on the task within a family.
   * Biased upwards by choosing a best among 11 kinds in small buckets; more executions per kind
   * reduce the bias.
   */
  withinFamilyGap: number;
  /** Executions of each kind on each task behind the kind accuracies. */
  executionsPerKind: number;
  withinFamily: Record<string, WithinFamilyDependence>;
  kinds: Record<string, KindResult>;
  /**
   * How few execution tokens a router could spend at best-fixed-per-family's accuracy by what it
   * knows of a task (`routingBound`: the family, the task type of `withinFamily`, the type and
   * size, the task itself); absent with one execution per kind.
   */
  routingBound?: RoutingBound;
}

/**
 * Measures, by executing plans, whether plan choice matters in a scenario (issue 3): every
 * fixed plan kind on every test task, and N plans per task from the base policy.
 */
export async function calibrateScenario(environment: SimEnvironment, options: CalibrationOptions = {}): Promise<CalibrationReport> {
  const { tasks: taskCount = 200, plansPerTask = 8, seed = 0, concurrency = 16, executionsPerKind = 1 } = options;
  const { scenario } = environment;
  const tasks = environment.tasks('test', taskCount);
  const limit = pLimit(concurrency);
  const total = tasks.length * (FIXED_PLAN_KINDS.length * executionsPerKind + plansPerTask);
  let done = 0;
  const execute = (task: Task, planText: string, episodeSeed: number, orchestratorCall?: Episode['orchestratorCall']) =>
    runEpisode({
      task,
      planText,
      blocks: environment.blocks,
      provider: environment.provider,
      retriever: environment.retriever,
      grader: environment.grader,
      seed: episodeSeed,
      sampleIndex: 0,
      orchestrator: { name: 'calibration' },
      ...(orchestratorCall !== undefined && { orchestratorCall }),
    }).then((episode) => {
      options.events?.({ type: 'progress', stage: 'calibrate', done: ++done, total });
      return episode;
    });

  // Repetition 0 keeps the seed calibration has always used; later ones draw afresh.
  const kindSeed = (index: number, repetition: number) => deriveSeed(seed, repetition === 0 ? `kind:${index}` : `kind:${index}:${repetition}`);
  const kindEpisodes = await Promise.all(
    FIXED_PLAN_KINDS.map((kind) =>
      Promise.all(tasks.map((task, index) => Promise.all(Array.from({ length: executionsPerKind }, (_, repetition) => limit(() => runKind(kind, task, kindSeed(index, repetition))))))),
    ),
  );
  async function runKind(kind: FixedPlanKind, task: Task, episodeSeed: number): Promise<Episode> {
    const { plan } = samplePlan(task.question, new Rng(episodeSeed), fixedKindCheckpoint(kind), {
      families: environment.families,
      answerDirectly: environment.answerDirectly,
      temperature: 0,
    });
    return execute(task, JSON.stringify(plan), episodeSeed);
  }

  const orchestrator = environment.orchestrator('base');
  const baseEpisodes = await Promise.all(
    tasks.map((task, index) =>
      Promise.all(
        Array.from({ length: plansPerTask }, (_, sampleIndex) =>
          limit(async () => {
            const episodeSeed = deriveSeed(seed, `base:${index}:${sampleIndex}`);
            const written = await orchestrator.writePlan(task, { sampleIndex, seed: episodeSeed });
            return execute(task, written.text, episodeSeed, written.call);
          }),
        ),
      ),
    ),
  );
  return summarize(scenario.name, seed, tasks, kindEpisodes, baseEpisodes, plansPerTask, executionsPerKind);
}

/** The task axis that says how big a task is (arith `depth`, multihop `hops`), and its value. */
function taskSizeOf(task: Task): string | undefined {
  const axes = task.metadata.axes;
  if (typeof axes !== 'object' || axes === null) return undefined;
  const axis = ['depth', 'hops'].find((name) => name in axes);
  return axis === undefined ? undefined : `${axis}=${String((axes as Record<string, unknown>)[axis])}`;
}

/** The task axis whose buckets stand for task types in a family, and a task's bucket. */
function taskTypeOf(task: Task): { axis: string; value: string } | undefined {
  const axes = task.metadata.axes;
  if (typeof axes !== 'object' || axes === null) return undefined;
  const preferred = ['structure', 'type', 'depth', 'hops'].find((axis) => axis in axes) ?? Object.keys(axes)[0];
  if (preferred === undefined) return undefined;
  return { axis: preferred, value: String((axes as Record<string, unknown>)[preferred]) };
}

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

function summarize(
  scenarioName: string,
  seed: number,
  tasks: readonly Task[],
  kindEpisodes: Episode[][][],
  baseEpisodes: Episode[][],
  plansPerTask: number,
  executionsPerKind: number,
): CalibrationReport {
  const familyOf = (task: Task) => task.suite;
  const tasksPerFamily: Record<string, number> = {};
  for (const task of tasks) tasksPerFamily[familyOf(task)] = (tasksPerFamily[familyOf(task)] ?? 0) + 1;
  const correct = (episode: Episode) => (episode.grade?.correct ? 1 : 0);
  const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  // Per kind, per task: the share of its executions that were correct.
  const taskAccuracy = (kindIndex: number, taskIndex: number) => mean((kindEpisodes[kindIndex]?.[taskIndex] ?? []).map(correct));

  const kinds: Record<string, KindResult> = {};
  FIXED_PLAN_KINDS.forEach((kind, kindIndex) => {
    const episodes = (kindEpisodes[kindIndex] ?? []).flat();
    const perFamily: Record<string, number> = {};
    for (const family of Object.keys(tasksPerFamily)) perFamily[family] = mean(episodes.filter((episode) => familyOf(episode.task) === family).map(correct));
    kinds[kind.name] = {
      accuracy: mean(episodes.map(correct)),
      meanExecutionTokens: mean(episodes.map((episode) => episode.usage.execution.totalTokens)),
      perFamily,
    };
  });
  const kindNames = Object.keys(kinds);
  const best = (score: (name: string) => number) =>
    kindNames.reduce((bestName, name) => (score(name) > score(bestName) ? name : bestName), kindNames[0] as string);
  const bestSingle = best((name) => kinds[name]?.accuracy ?? 0);
  const bestKindPerFamily: Record<string, { kind: string; accuracy: number }> = {};
  let perFamilyBestAccuracy = 0;
  for (const [family, count] of Object.entries(tasksPerFamily)) {
    const kind = best((name) => kinds[name]?.perFamily[family] ?? 0);
    const accuracy = kinds[kind]?.perFamily[family] ?? 0;
    bestKindPerFamily[family] = { kind, accuracy };
    perFamilyBestAccuracy += (accuracy * count) / tasks.length;
  }
  const executing = kindNames.map((name) => kinds[name]?.meanExecutionTokens ?? 0).filter((tokens) => tokens > 0);

  const withinFamily: Record<string, WithinFamilyDependence> = {};
  let withinGain = 0;
  for (const [family, count] of Object.entries(tasksPerFamily)) {
    const familyBest = bestKindPerFamily[family]!;
    const familyBestIndex = FIXED_PLAN_KINDS.findIndex((kind) => kind.name === familyBest.kind);
    const buckets = new Map<string, number[]>();
    let axis = 'none';
    tasks.forEach((task, taskIndex) => {
      if (familyOf(task) !== family) return;
      const type = taskTypeOf(task);
      axis = type?.axis ?? 'none';
      const value = type?.value ?? 'all';
      buckets.set(value, [...(buckets.get(value) ?? []), taskIndex]);
    });
    let bucketBestSum = 0;
    let differing = 0;
    const rows: WithinFamilyDependence['buckets'] = [];
    for (const [value, members] of [...buckets].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
      const accuracyOf = (kindIndex: number) => mean(members.map((taskIndex) => taskAccuracy(kindIndex, taskIndex)));
      let bestIndex = familyBestIndex;
      FIXED_PLAN_KINDS.forEach((_, kindIndex) => {
        if (accuracyOf(kindIndex) > accuracyOf(bestIndex)) bestIndex = kindIndex;
      });
      const accuracy = accuracyOf(bestIndex);
      bucketBestSum += accuracy * members.length;
      if (bestIndex !== familyBestIndex) differing += members.length;
      rows.push({
        value,
        tasks: members.length,
        bestKind: FIXED_PLAN_KINDS[bestIndex]!.name,
        accuracy: round(accuracy),
        familyBestAccuracy: round(accuracyOf(familyBestIndex)),
        kindAccuracy: Object.fromEntries(FIXED_PLAN_KINDS.map((kind, kindIndex) => [kind.name, round(accuracyOf(kindIndex))])),
      });
    }
    const gap = bucketBestSum / count - familyBest.accuracy;
    withinGain += gap * count;
    withinFamily[family] = { axis, familyBest, buckets: rows, gap: round(100 * gap, 2), differingShare: round(differing / count) };
  }

  const bound = routingBound({
    tasks: tasks.map((task) => {
      const type = taskTypeOf(task)?.value;
      const size = taskSizeOf(task);
      return { family: familyOf(task), ...(type !== undefined && { type }), ...(size !== undefined && { size }) };
    }),
    kinds: FIXED_PLAN_KINDS.map((kind) => kind.name),
    executions: kindEpisodes.map((byTask) => byTask.map((episodes) => episodes.map((episode) => ({ correct: episode.grade?.correct === true, executionTokens: episode.usage.execution.totalTokens })))),
  });

  const baseFlat = baseEpisodes.flat();
  const baseAccuracy = mean(baseFlat.map(correct));
  const oracle = mean(baseEpisodes.map((episodes) => (episodes.some((episode) => episode.grade?.correct) ? 1 : 0)));
  const meanOrchestratorTokens = mean(baseFlat.map((episode) => episode.usage.orchestrator.totalTokens));
  const meanExecutionTokens = mean(baseFlat.map((episode) => episode.usage.execution.totalTokens));
  return {
    scenario: scenarioName,
    seed,
    tasks: tasks.length,
    tasksPerFamily,
    bestFixedPlanGap: round(100 * (perFamilyBestAccuracy - (kinds[bestSingle]?.accuracy ?? 0)), 2),
    baseVsOracleGap: round(100 * (oracle - baseAccuracy), 2),
    execTokenSpread: round(Math.max(...executing) / Math.min(...executing), 2),
    planTokenShare: round(meanExecutionTokens === 0 ? 0 : meanOrchestratorTokens / meanExecutionTokens),
    base: {
      checkpoint: 'base',
      plansPerTask,
      accuracy: round(baseAccuracy),
      oracleAtN: round(oracle),
      meanOrchestratorTokens: round(meanOrchestratorTokens, 1),
      meanExecutionTokens: round(meanExecutionTokens, 1),
    },
    bestSingleKind: { kind: bestSingle, accuracy: round(kinds[bestSingle]?.accuracy ?? 0) },
    bestKindPerFamily,
    withinFamilyGap: round((100 * withinGain) / tasks.length, 2),
    executionsPerKind,
    withinFamily,
    kinds: Object.fromEntries(
      Object.entries(kinds).map(([name, result]) => [
        name,
        {
          accuracy: round(result.accuracy),
          meanExecutionTokens: round(result.meanExecutionTokens, 1),
          perFamily: Object.fromEntries(Object.entries(result.perFamily).map(([family, value]) => [family, round(value)])),
        },
      ]),
    ),
    ...(bound !== undefined && { routingBound: bound }),
  };
}
