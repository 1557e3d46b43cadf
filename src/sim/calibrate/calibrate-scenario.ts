import pLimit from 'p-limit';
import { createBlockRegistry } from '../../agents/index.js';
import type { Episode } from '../../core/episode.js';
import { deriveSeed, Rng } from '../../core/rng.js';
import type { Task } from '../../core/task.js';
import { runEpisode } from '../../exec/index.js';
import { createLlmOrchestrator } from '../../orchestrator/index.js';
import { exactMatchGrader } from '../../tasks/index.js';
import type { SimEnvironment } from '../environment.js';
import { samplePlan } from '../policy/index.js';
import { generateScenarioTasks } from '../scenario-tasks.js';
import { FIXED_PLAN_KINDS, fixedKindCheckpoint, type FixedPlanKind } from './fixed-plan-kinds.js';

export interface CalibrationOptions {
  /** Test-split tasks executed. @default 200 */
  tasks?: number;
  /** Plans sampled from the base policy per task, for oracle@N. @default 8 */
  plansPerTask?: number;
  /** @default 0 */
  seed?: number;
  /** Episodes in flight. @default 16 */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
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
  kinds: Record<string, KindResult>;
}

/**
 * Measures, by executing plans, whether plan choice matters in a scenario (issue 3): every
 * fixed plan kind on every test task, and N plans per task from the base policy.
 */
export async function calibrateScenario(environment: SimEnvironment, options: CalibrationOptions = {}): Promise<CalibrationReport> {
  const { tasks: taskCount = 200, plansPerTask = 8, seed = 0, concurrency = 16 } = options;
  const { scenario } = environment;
  const tasks = generateScenarioTasks(scenario, environment.families, { split: 'test', count: taskCount });
  const blocks = createBlockRegistry();
  const limit = pLimit(concurrency);
  const total = tasks.length * (FIXED_PLAN_KINDS.length + plansPerTask);
  let done = 0;
  const execute = (task: Task, planText: string, episodeSeed: number, orchestratorCall?: Episode['orchestratorCall']) =>
    runEpisode({
      task,
      planText,
      blocks,
      provider: environment.provider,
      retriever: environment.retriever,
      grader: exactMatchGrader,
      seed: episodeSeed,
      sampleIndex: 0,
      orchestrator: { name: 'calibration' },
      ...(orchestratorCall !== undefined && { orchestratorCall }),
    }).then((episode) => {
      options.onProgress?.(++done, total);
      return episode;
    });

  const kindEpisodes = await Promise.all(
    FIXED_PLAN_KINDS.map((kind) => Promise.all(tasks.map((task, index) => limit(() => runKind(kind, task, deriveSeed(seed, `kind:${index}`)))))),
  );
  async function runKind(kind: FixedPlanKind, task: Task, episodeSeed: number): Promise<Episode> {
    const { plan } = samplePlan(task.question, new Rng(episodeSeed), fixedKindCheckpoint(kind), {
      families: environment.families,
      answerDirectly: environment.answerDirectly,
      temperature: 0,
    });
    return execute(task, JSON.stringify(plan), episodeSeed);
  }

  const orchestrator = createLlmOrchestrator({ provider: environment.provider, catalog: blocks, model: 'sim-orchestrator-base' });
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
  return summarize(scenario.name, seed, tasks, kindEpisodes, baseEpisodes, plansPerTask);
}

function summarize(
  scenarioName: string,
  seed: number,
  tasks: readonly Task[],
  kindEpisodes: Episode[][],
  baseEpisodes: Episode[][],
  plansPerTask: number,
): CalibrationReport {
  const familyOf = (task: Task) => task.suite;
  const tasksPerFamily: Record<string, number> = {};
  for (const task of tasks) tasksPerFamily[familyOf(task)] = (tasksPerFamily[familyOf(task)] ?? 0) + 1;
  const correct = (episode: Episode) => (episode.grade?.correct ? 1 : 0);
  const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

  const kinds: Record<string, KindResult> = {};
  FIXED_PLAN_KINDS.forEach((kind, kindIndex) => {
    const episodes = kindEpisodes[kindIndex] ?? [];
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

  const baseFlat = baseEpisodes.flat();
  const baseAccuracy = mean(baseFlat.map(correct));
  const oracle = mean(baseEpisodes.map((episodes) => (episodes.some((episode) => episode.grade?.correct) ? 1 : 0)));
  const meanOrchestratorTokens = mean(baseFlat.map((episode) => episode.usage.orchestrator.totalTokens));
  const meanExecutionTokens = mean(baseFlat.map((episode) => episode.usage.execution.totalTokens));
  const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
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
  };
}
