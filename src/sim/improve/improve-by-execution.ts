import pLimit from 'p-limit';
import { deriveSeed, type EventSink, Rng, type Task } from '../../core/index.js';
import { runEpisode } from '../../exec/index.js';
import type { SimEnvironment } from '../environment.js';
import { createSimTrainablePolicy } from '../grpo/sim-trainable-policy.js';
import { createSimPolicy, improveCheckpoint, simOrchestratorRef, type PolicyCheckpoint, type RewardedSample } from '../policy/index.js';

export interface ImproveByExecutionOptions {
  /** Name of the improved checkpoint. */
  name: string;
  /** @default 6 */
  rounds?: number;
  /** Train tasks per round (each round takes the next ones). @default 64 */
  tasksPerRound?: number;
  /** Plans sampled and executed per task. @default 8 */
  samplesPerTask?: number;
  /** @default 0.5 */
  learningRate?: number;
  /** Reward for a plan that executed without error, as in MAS-Orchestra's w_exec. @default 0.1 */
  executedReward?: number;
  /** Reward for a correct answer (w_correct). @default 0.9 */
  correctReward?: number;
  /** @default 0 */
  seed?: number;
  /** Episodes in flight. @default 16 */
  concurrency?: number;
  /** An `improve-round-end` event after each round. */
  events?: EventSink<ImproveEvent>;
}

/** What `improveByExecution` reports: each round's summary, with the number of rounds. */
export type ImproveEvent = { type: 'improve-round-end'; round: ImprovementRound; rounds: number };

/** Accuracy of a checkpoint's sampled plans on test-split tasks, by executing them. */
export async function evaluateCheckpointByExecution(
  environment: Omit<SimEnvironment, 'trainable'>,
  checkpoint: PolicyCheckpoint,
  options: { tasks?: number; samplesPerTask?: number; seed?: number; concurrency?: number } = {},
): Promise<{ accuracy: number; episodes: number; executionTokens: number }> {
  const { tasks: taskCount = 100, samplesPerTask = 4, seed = 0, concurrency = 16 } = options;
  const policy = createSimPolicy({ scenario: environment.scenario, families: environment.families, answerDirectly: environment.answerDirectly });
  const limit = pLimit(concurrency);
  const tasks = environment.tasks('test', taskCount);
  const outcomes = await Promise.all(
    tasks.flatMap((task) =>
      Array.from({ length: samplesPerTask }, (_, sample) =>
        limit(async () => {
          const sampleSeed = deriveSeed(seed, `evaluate:${task.id}:${sample}`);
          const episode = await executeSampled(environment, checkpoint, task, policy.sample(task.question, new Rng(sampleSeed), checkpoint).text, sample, sampleSeed);
          return { correct: episode.grade?.correct === true, tokens: episode.usage.execution.totalTokens };
        }),
      ),
    ),
  );
  return {
    accuracy: outcomes.filter((outcome) => outcome.correct).length / outcomes.length,
    episodes: outcomes.length,
    executionTokens: outcomes.reduce((sum, outcome) => sum + outcome.tokens, 0),
  };
}

export interface ImprovementRound {
  round: number;
  meanReward: number;
  accuracy: number;
  executionTokens: number;
  /** Tokens of writing the round's plans, as GRPO bills them (`createSimTrainablePolicy`): the orchestrator prompt and the plan. */
  orchestratorTokens: number;
}

/**
 * Produces a stronger orchestrator checkpoint the expensive way: sample plans on train tasks,
 * execute every one, reward `executedReward * ok + correctReward * correct`, and take a
 * REINFORCE step with a per-task mean baseline. This is the execution-reward training the
 * reward model is meant to replace; here it only makes checkpoints to compare and mine.
 */
export async function improveByExecution(
  environment: SimEnvironment,
  from: PolicyCheckpoint,
  options: ImproveByExecutionOptions,
): Promise<{ checkpoint: PolicyCheckpoint; rounds: ImprovementRound[] }> {
  const {
    rounds = 6,
    tasksPerRound = 64,
    samplesPerTask = 8,
    learningRate = 0.5,
    executedReward = 0.1,
    correctReward = 0.9,
    seed = 0,
    concurrency = 16,
  } = options;
  // The trainable policy samples as the sim policy does (temperature 1) and bills the plan's writing.
  const policy = createSimTrainablePolicy(environment);
  const tasks = environment.tasks('train', rounds * tasksPerRound);
  const limit = pLimit(concurrency);
  let checkpoint = from;
  const history: ImprovementRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const roundTasks = tasks.slice(round * tasksPerRound, (round + 1) * tasksPerRound);
    const current = checkpoint;
    const results = await Promise.all(
      roundTasks.flatMap((task) =>
        Array.from({ length: samplesPerTask }, (_, sample) =>
          limit(async () => {
            const sampleSeed = deriveSeed(seed, `improve:${round}:${task.id}:${sample}`);
            const sampled = await policy.sample(task, current, { seed: sampleSeed });
            const episode = await executeSampled(environment, current, task, sampled.text, sample, sampleSeed);
            const correct = episode.grade?.correct === true;
            const reward = executedReward * (episode.status === 'ok' ? 1 : 0) + correctReward * (correct ? 1 : 0);
            const rewarded: RewardedSample = { question: task.question, decisions: sampled.action, reward };
            return { rewarded, correct, tokens: episode.usage.execution.totalTokens, orchestratorTokens: sampled.usage.totalTokens };
          }),
        ),
      ),
    );
    checkpoint = improveCheckpoint(current, results.map((result) => result.rewarded), { learningRate, steps: 1, name: options.name });
    const summary: ImprovementRound = {
      round,
      meanReward: results.reduce((sum, result) => sum + result.rewarded.reward, 0) / results.length,
      accuracy: results.filter((result) => result.correct).length / results.length,
      executionTokens: results.reduce((sum, result) => sum + result.tokens, 0),
      orchestratorTokens: results.reduce((sum, result) => sum + result.orchestratorTokens, 0),
    };
    history.push(summary);
    options.events?.({ type: 'improve-round-end', round: summary, rounds });
  }
  return { checkpoint, rounds: history };
}

/** Executes a plan of a checkpoint on a task in the environment. */
function executeSampled(environment: Omit<SimEnvironment, 'trainable'>, checkpoint: PolicyCheckpoint, task: Task, planText: string, sampleIndex: number, sampleSeed: number) {
  return runEpisode({
    task,
    planText,
    blocks: environment.blocks,
    provider: environment.provider,
    retriever: environment.retriever,
    grader: environment.grader,
    seed: sampleSeed,
    sampleIndex,
    orchestrator: simOrchestratorRef(checkpoint),
  });
}
