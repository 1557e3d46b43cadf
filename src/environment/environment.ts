import type { Dom, Grader, PlanTemplateLibrary, Retriever, Task, TaskSplit } from '../core/index.js';
import type { ExecutableBlocks } from '../exec/index.js';
import type { ChatProvider } from '../llm/index.js';
import type { Orchestrator } from '../orchestrator/index.js';
import type { TrainableOrchestrator } from './trainable-policy.js';

/*
 * Why this folder: an environment names a provider (llm/), blocks (agents/, exec/), an
 * orchestrator (orchestrator/) and graders (tasks/), so its interface cannot sit in core/, the
 * bottom, which imports nothing. It sits after those folders and before everything that runs in
 * an environment (collect/, select/, train/, demo/) and before sim/, which implements it: the
 * pipeline and the simulator both import it here, and nothing here imports sim/.
 */

/** How the orchestrator of an environment is asked for plans. */
export interface EnvironmentOrchestratorOptions {
  /** Plan format asked for. @default 'json' */
  format?: 'json' | 'xml';
  /** Degree of MAS asked for; `auto` lets the model choose. @default 'auto' */
  dom?: Dom | 'auto';
}

/**
 * Everything a pipeline stage needs of the world it runs in: the models behind one provider
 * (orchestrator, worker and judge slots), the blocks plans may use, the documents search blocks
 * read, the tasks and how answers are graded, and the orchestrator for a reference. Remote
 * servers (`createRemoteEnvironment`) and the simulator (`createSimEnvironment` in `orchrm/sim`)
 * implement it; `collect`, `bon`, the demo, `loop`, calibration, improvement and GRPO run in one.
 *
 * @example
 * const environment = await createRemoteEnvironment(loadProviderConfig('vllm.json'), 'gsm8k-test.jsonl', { suite: 'gsm8k' });
 * try {
 *   await collectEpisodes({ environment, tasks: environment.tasks('train'), store, plansPerTask: 8 });
 *   await runBestOfN({ environment, tasks: environment.tasks('test'), orchestrator: environment.orchestrator('my-model', { format: 'xml' }), rewardModel, config: { ns: [1, 8] } });
 * } finally {
 *   environment.close();
 * }
 */
export interface Environment {
  /** Who answers, for messages (e.g. `sim(default)`, the provider name). */
  readonly name: string;
  /** Answers orchestrator, worker and judge requests; routes by `request.slot`. */
  readonly provider: ChatProvider;
  /** The blocks plans can run here (no `search` without a retriever); what the orchestrator is offered. */
  readonly blocks: ExecutableBlocks;
  /** What search blocks query; undefined when the environment has no documents. */
  readonly retriever: Retriever | undefined;
  /** Grades answers the way the tasks' suite does. */
  readonly grader: Grader;
  /**
   * Tasks of a split. An environment that generates its tasks (the simulator) makes `count` of
   * them; one that reads a task file returns the file's tasks, the first `count` when given.
   */
  tasks(split: TaskSplit, count?: number): Task[];
  /**
   * The orchestrator for a reference: a model the provider serves, or a checkpoint of a
   * simulated orchestrator. @default the environment's own orchestrator model (`base` in the simulator)
   */
  orchestrator(reference?: string, options?: EnvironmentOrchestratorOptions): Orchestrator;
  /** Fixed plans the environment itself offers beside sampled ones (the simulator's plan kinds); absent when it has none. */
  readonly templates?: PlanTemplateLibrary;
  /** Present when the environment's orchestrator can be trained (GRPO). */
  readonly trainable?: TrainableOrchestrator<unknown, unknown, unknown>;
  /** JSON that identifies what the environment serves (resume keys digest it; never holds secrets). */
  readonly identity: unknown;
  /** Releases what the environment opened (a response cache); the environment is unusable after. */
  close(): void;
}
