import { defaultBlockCatalog } from '../plan/index.js';
import { analyzePlan, syntheticPairs, trainRewardModel, type TrainedRewardModel } from '../rm/index.js';

export interface RmScoringBenchOptions {
  /** Timed rounds; each scores its own fresh plan texts, and the median round is reported. @default 5 */
  rounds?: number;
  /** Tasks per round, each with up to 8 distinct plans (as in Best-of-8). @default 1000 */
  tasksPerRound?: number;
}

/**
 * Scoring of fresh plan text by a trained linear reward model (default encoder spec, trained on
 * 2000 synthetic pairs as `orchrm serve`'s bench model is), on one thread:
 * - `plansPerSecond`: `model.score(task, plans)` for never-seen texts, 8 plans per task (parse,
 *   validation, canonical form, features, head);
 * - `cachedPlansPerSecond`: the same texts scored again (canonical forms cached);
 * - `planAnalysisPlansPerSecond`: `analyzePlan` alone (parse, validate, canonicalise: the share
 *   of the work that belongs to `plan/`), for the same texts.
 * Each figure is the median of `rounds` rounds.
 */
export async function benchRmScoring(options: RmScoringBenchOptions = {}) {
  const { rounds = 5, tasksPerRound = 1000 } = options;
  const { model } = await trainRewardModel(syntheticPairs({ pairs: 2000, seed: 1 }), { seed: 1 });
  const catalog = defaultBlockCatalog();
  const fresh: number[] = [];
  const freshCpu: number[] = [];
  const cached: number[] = [];
  const analysis: number[] = [];
  let planCount = 0;
  // One warm-up round (JIT), then the timed ones, each on texts of its own seed.
  for (let round = 0; round <= rounds; round++) {
    const byTask = plansByTask(tasksPerRound, 100 + round);
    planCount = [...byTask.values()].reduce((sum, texts) => sum + texts.length, 0);
    const analysisStartedAt = performance.now();
    for (const texts of byTask.values()) for (const text of texts) analyzePlan(text, catalog);
    const analysisMs = performance.now() - analysisStartedAt;
    const freshTime = await timeScoring(model, byTask);
    const cachedTime = await timeScoring(model, byTask);
    if (round === 0) continue;
    analysis.push(planCount / (analysisMs / 1000));
    fresh.push(planCount / (freshTime.wallMs / 1000));
    freshCpu.push(planCount / (freshTime.cpuMs / 1000));
    cached.push(planCount / (cachedTime.wallMs / 1000));
  }
  return {
    model: model.name,
    encoder: 'default (shape)',
    plansPerRound: planCount,
    rounds,
    plansPerSecond: median(fresh),
    cachedPlansPerSecond: median(cached),
    planAnalysisPlansPerSecond: median(analysis),
    /** `plansPerSecond` in CPU time of this process: steadier than wall time when other processes share the cores. */
    cpuPlansPerSecond: median(freshCpu),
  };
}

async function timeScoring(model: TrainedRewardModel, byTask: ReadonlyMap<string, readonly string[]>): Promise<{ wallMs: number; cpuMs: number }> {
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  for (const [task, texts] of byTask) await model.score(task, texts);
  const cpu = process.cpuUsage(cpuAtStart);
  return { wallMs: performance.now() - startedAt, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Distinct synthetic plan texts of `tasks` tasks (up to 8 each), none seen by the model's cache before. */
function plansByTask(tasks: number, seed: number): Map<string, string[]> {
  const byTask = new Map<string, Set<string>>();
  for (const pair of syntheticPairs({ pairs: tasks * 4, seed, pairsPerTask: 4 })) {
    const texts = byTask.get(pair.question) ?? new Set<string>();
    texts.add(pair.winner.planText).add(pair.loser.planText);
    byTask.set(pair.question, texts);
  }
  return new Map([...byTask].map(([task, texts]) => [task, [...texts]]));
}

const median = (values: readonly number[]) => Math.round([...values].sort((a, b) => a - b)[values.length >> 1] ?? 0);
