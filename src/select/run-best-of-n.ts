import pLimit, { type LimitFunction } from 'p-limit';
import { deriveSeed, type Episode, type EventSink, isCostAware, type PlanTemplateLibrary, type ProgressEvent, type RewardModel, routesTemplates, type Task, type TemplatePlan, type TemplateRoutingRewardModel, type Usage, UserError } from '../core/index.js';
import type { Environment } from '../environment/index.js';
import { errorMessage, runEpisode } from '../exec/index.js';
import { ProviderError } from '../llm/index.js';
import type { Orchestrator } from '../orchestrator/index.js';
import { frontierObjectives, objectiveOf, parseBonConfig, type BonConfig, type BonConfigInput } from './bon-config.js';
import type { CandidatePick } from './candidate-pick.js';
import { CandidatePool, scoreEach, type SampledPlans } from './candidate-pool.js';
import type { SelectionObjective } from './selection-objective.js';
import { RANKING_STRATEGIES, TEMPLATE_STRATEGIES, type OutcomeName } from './selection-strategy.js';
import { rmTemplatesOnlyStrategy, rmWithTemplatesStrategy, STRATEGIES } from './strategies/index.js';

export interface BestOfNOptions {
  /**
   * Where the plans run: its provider answers the sub-agents' calls and the `judge` and
   * `plan-judge` strategies' slot-`judge` calls, its blocks run the plans, its retriever answers
   * search blocks and its grader grades the answers (tasks need gold answers for accuracy).
   */
  environment: Environment;
  tasks: readonly Task[];
  /**
   * Writes the N plans per task: one of the environment's (`environment.orchestrator('strong')`)
   * or any other. @default environment.orchestrator(), the environment's own
   */
  orchestrator?: Orchestrator;
  /** Needed by `rm`, `rm-topk-vote` and `rm-adaptive`. */
  rewardModel?: RewardModel;
  /**
   * Template plans of `pool: 'sampled+templates'`, required there: a file's (`loadPlanTemplates`),
   * the generic ones (`genericPlanTemplates`). @default environment.templates, the environment's own
   */
  templates?: PlanTemplateLibrary;
  config?: BonConfigInput;
  /** Progress of stage `bon`, after each task's strategies are done. */
  events?: EventSink<ProgressEvent>;
  signal?: AbortSignal;
  /** Results of tasks an earlier invocation of the same run completed (by task id): not redone, counted as they were. */
  completedTasks?: ReadonlyMap<string, BonTaskResult>;
  /** Called as soon as a task's strategies are all done, e.g. to commit it (`runStoredBestOfN`). */
  onTaskDone?: (result: BonTaskResult) => void;
  /**
   * Stops starting tasks when this many in a row failed (a model request that failed after its
   * retries), instead of spending the rest of the run on a dead server. 0 never stops. @default 5
   */
  stopAfterRepeatedFailures?: number;
}

/** What one task contributes to a run: its outcomes and its executions. */
export interface BonTaskResult {
  taskId: string;
  outcomes: TaskOutcome[];
  distinctExecutions: number;
  requestedExecutions: number;
  /** With `config.frontier`: `rm+templates` at each operating point of the sweep on this task. */
  frontierOutcomes?: FrontierOutcome[];
}

/** A task left out of a run because a model request failed after its retries; a rerun of the run redoes it. */
export interface FailedBonTask {
  taskId: string;
  message: string;
}

/** One strategy at one N on one task: its outcome and its tokens (total tokens per role). */
export interface TaskOutcome {
  taskId: string;
  suite: string;
  n: number;
  /** A strategy, or `fixed:<template>` for a template plan run on every task. */
  strategy: OutcomeName;
  correct: boolean;
  /** Plans it sent to execution (an invalid plan counts, at zero tokens). */
  executions: number;
  tokens: { orchestrator: number; execution: number; verification: number };
  judgeFailed?: boolean;
  /**
   * The candidate whose answer the strategy settled on (the template itself for `fixed:<name>`);
   * absent when it settled on none (`oracle` with no correct plan, a vote nobody answered).
   * Strategies that rank by the reward model record its score.
   */
  pick?: CandidatePick;
}

/** A frontier strategy (`config.frontier`) at one operating point on one task. */
export interface FrontierOutcome extends Omit<TaskOutcome, 'strategy' | 'judgeFailed'> {
  /** Index into `BestOfNRun.frontier.objectives`. */
  point: number;
  /**
   * `rm-templates-only` when the template router chose alone, priced by its expected tokens
   * (`SelectionContext.templateRouteCosts`); absent for `rm+templates`.
   */
  strategy?: 'rm-templates-only';
}

export interface BestOfNRun {
  config: BonConfig;
  /**
   * With `config.frontier`: `rm+templates` at the largest N under each objective of the sweep
   * (`frontierObjectives(config)`), on every task, and `rm-templates-only` too where the template
   * router chooses and prices the templates; `summarizeFrontier` turns each into a frontier.
   */
  frontier?: { n: number; objectives: SelectionObjective[]; outcomes: FrontierOutcome[] };
  tasks: number;
  outcomes: TaskOutcome[];
  /** Plans actually executed over all strategies and N (each at most once per task). */
  distinctExecutions: number;
  /** What every strategy together would have executed without sharing. */
  requestedExecutions: number;
  /** Tasks whose requests failed after their retries: not in `outcomes`, `tasks` counts only the others. @default [] */
  failedTasks?: FailedBonTask[];
  /** Tasks not started because the run stopped after repeated failures. @default 0 */
  notStarted?: number;
  /** With a template strategy and a reward model: each suite's reference template (`templateReferences`), when no router chose. */
  templateReferences?: Record<string, string>;
  /**
   * With a template strategy and a reward model: how rm+templates and rm-templates-only chose
   * their template, by the model's template router (it knows every template of the library and
   * every suite of the tasks) or by its scores against each suite's reference template.
   */
  templateChoice?: 'router' | 'reference';
  /**
   * With template plans and a model whose router keeps its training record: per suite, the
   * template that did best in the graded template episodes the model was trained on
   * (`bestTemplatesBySuite`), present only when it names one for every suite of the tasks. bon's
   * `train-best-fixed-per-family` runs it: the fixed plan per family a user could deploy from the
   * same data, where `best-fixed-per-family` is chosen on the test tasks themselves.
   */
  fixedFromTraining?: Record<string, string>;
}

/** An executed plan the server failed (`server_error`): its task cannot be judged fairly, so it fails and is redone. */
class ServerFailedEpisodeError extends ProviderError {
  constructor(episode: Episode) {
    super(`plan ${episode.sampleIndex} of task ${episode.task.id} ended in a server failure: ${episode.reason ?? 'server_error'}`, { retryable: false });
  }
}

/** A model request that failed after its retries (or an execution the server failed) fails its task, not the run. */
function isTaskFailure(error: unknown): boolean {
  return error instanceof ProviderError;
}

async function failOnServerError(episode: Promise<Episode>): Promise<Episode> {
  const settled = await episode;
  if (settled.status === 'server_error') throw new ServerFailedEpisodeError(settled);
  return settled;
}

/**
 * Runs a Best-of-N experiment (issue 6): for each task, samples max(ns) plans once, then runs
 * every strategy at every N over the first N of them. Executions are lazy and cached per task,
 * so a plan executed by one strategy serves all others; each outcome is priced with the tokens
 * of exactly what its strategy wrote, executed and verified. Deterministic in `config.seed`
 * whatever the concurrency: plan i of a task uses seed derive(seed, `<task id>#<i>`) both to
 * be written and to be executed, as `orchrm collect` does.
 *
 * @example
 * const run = await runBestOfN({ environment, tasks: environment.tasks('test'), rewardModel, config: { ns: [1, 8] } });
 */
export async function runBestOfN(options: BestOfNOptions): Promise<BestOfNRun> {
  const { environment } = options;
  const config = parseBonConfig(options.config ?? {});
  const maxN = config.ns.at(-1) as number;
  const orchestrator = options.orchestrator ?? environment.orchestrator();
  const templates = config.pool === 'sampled+templates' ? (options.templates ?? environment.templates) : undefined;
  if (config.pool === 'sampled+templates' && templates === undefined) {
    throw new UserError(`pool sampled+templates needs template plans, and environment ${environment.name} has none of its own: pass a template library as templates (bon --templates file.json, or the built-in generic ones)`);
  }
  const objective = objectiveOf(config);
  if ((objective.kind !== 'accuracy' || config.frontier) && (options.rewardModel === undefined || !isCostAware(options.rewardModel))) {
    const what = config.frontier ? 'the frontier' : `objective ${config.objective}`;
    throw new UserError(
      `${what} needs a reward model with a cost head and a calibration${options.rewardModel === undefined ? '' : `, and ${options.rewardModel.name} has none`}: train one with orchrm rm train on a mined pair dataset (model format 3), or use objective accuracy`,
    );
  }
  const frontierPoints = config.frontier ? frontierObjectives(config) : [];
  const limit = pLimit(config.concurrency);
  const usesTemplates = templates !== undefined && options.rewardModel !== undefined && config.strategies.some((name) => TEMPLATE_STRATEGIES.has(name));
  // A router that knows every template of the library and every suite of the tasks chooses among them; otherwise each suite's reference template guards the model's choice.
  const router =
    usesTemplates &&
    routesTemplates(options.rewardModel!) &&
    templates.names.every((name) => (options.rewardModel as TemplateRoutingRewardModel).routedTemplates.includes(name)) &&
    options.tasks.every((task) => (options.rewardModel as TemplateRoutingRewardModel).routedSuites.includes(task.suite));
  const fromTraining = templates !== undefined && options.rewardModel !== undefined && routesTemplates(options.rewardModel) ? options.rewardModel.bestTemplatesBySuite?.(templates.names) : undefined;
  const fixedFromTraining = fromTraining !== undefined && options.tasks.every((task) => fromTraining[task.suite] !== undefined) ? Object.fromEntries(Object.entries(fromTraining).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : undefined;
  const references = usesTemplates && !router ? await templateReferences(options.tasks, templates, options.rewardModel!, limit, options.signal) : new Map<string, string>();
  const { stopAfterRepeatedFailures = 5 } = options;
  const perTask: BonTaskResult[] = [];
  const failedTasks: FailedBonTask[] = [];
  let failureStreak = 0;
  let notStarted = 0;
  let done = 0;
  const finish = (position: number, result: BonTaskResult) => {
    perTask[position] = result;
    options.events?.({ type: 'progress', stage: 'bon', done: ++done, total: options.tasks.length });
  };
  await Promise.all(
    options.tasks.map((task, position) =>
      limit(async () => {
        options.signal?.throwIfAborted();
        const earlier = options.completedTasks?.get(task.id);
        if (earlier !== undefined) return finish(position, earlier);
        if (stopAfterRepeatedFailures > 0 && failureStreak >= stopAfterRepeatedFailures) {
          notStarted += 1;
          return;
        }
        let result: BonTaskResult;
        try {
          result = await runTask(options, orchestrator, templates, config, task, objective, frontierPoints, references.get(task.suite), router);
        } catch (error) {
          if (options.signal?.aborted || !isTaskFailure(error)) throw error;
          failedTasks.push({ taskId: task.id, message: errorMessage(error) });
          failureStreak += 1;
          return;
        }
        failureStreak = 0;
        options.onTaskDone?.(result);
        finish(position, result);
      }),
    ),
  );
  const completed = perTask.filter((result) => result !== undefined);
  return {
    config,
    tasks: completed.length,
    outcomes: completed.flatMap((result) => result.outcomes),
    distinctExecutions: completed.reduce((sum, result) => sum + result.distinctExecutions, 0),
    requestedExecutions: completed.reduce((sum, result) => sum + result.requestedExecutions, 0),
    failedTasks,
    notStarted,
    ...(config.frontier && { frontier: { n: maxN, objectives: frontierPoints, outcomes: completed.flatMap((result) => result.frontierOutcomes ?? []) } }),
    ...(references.size > 0 && { templateReferences: Object.fromEntries(references) }),
    ...(usesTemplates && { templateChoice: router ? 'router' : 'reference' }),
    ...(fixedFromTraining !== undefined && { fixedFromTraining }),
  };
}

/**
 * The reference template of each suite (`SelectionContext.referenceTemplate`): the template the
 * reward model scores highest on the most of the suite's tasks in this run, the first in library
 * order on a tie. It reads the model's scores of the template plans only (the same scores the
 * strategies read; no plan is executed, no grade read), over every task of the run, so a resumed
 * run finds the same references. Template libraries are expected to be cheap and deterministic
 * (`plansFor` runs once more per task here).
 */
async function templateReferences(tasks: readonly Task[], templates: PlanTemplateLibrary, rewardModel: RewardModel, limit: LimitFunction, signal: AbortSignal | undefined): Promise<Map<string, string>> {
  const firstChoices = new Map<string, Map<string, number>>();
  await Promise.all(
    tasks.map((task) =>
      limit(async () => {
        signal?.throwIfAborted();
        const plans = await templates.plansFor(task);
        if (plans.length === 0) return;
        const scores = await scoreEach(rewardModel, task.question, plans.map((plan) => plan.planText), signal ? { signal } : {});
        let best = 0;
        for (let index = 1; index < plans.length; index++) if (scores[index]! > scores[best]!) best = index;
        const counts = firstChoices.get(task.suite) ?? new Map<string, number>();
        counts.set(plans[best]!.name, (counts.get(plans[best]!.name) ?? 0) + 1);
        firstChoices.set(task.suite, counts);
      }),
    ),
  );
  const references = new Map<string, string>();
  for (const suite of [...firstChoices.keys()].sort()) {
    const counts = firstChoices.get(suite)!;
    let reference: string | undefined;
    for (const name of templates.names) if ((counts.get(name) ?? 0) > (reference === undefined ? 0 : counts.get(reference)!)) reference = name;
    if (reference !== undefined) references.set(suite, reference);
  }
  return references;
}

/** One task: sample its plans, then every strategy at every N over them. */
async function runTask(
  options: BestOfNOptions,
  orchestrator: Orchestrator,
  templates: PlanTemplateLibrary | undefined,
  config: BonConfig,
  task: Task,
  objective: SelectionObjective,
  frontierPoints: readonly SelectionObjective[],
  referenceName: string | undefined,
  routeTemplates: boolean,
): Promise<BonTaskResult> {
  const { environment } = options;
  const maxN = config.ns.at(-1) as number;
  let requestedExecutions = 0;
  const sampled = await samplePlans(options, orchestrator, task, maxN, config.seed);
  const taskTemplates = templates === undefined ? [] : await templates.plansFor(task);
  const referencePosition = referenceName === undefined ? -1 : taskTemplates.findIndex((template) => template.name === referenceName);
  const pool = new CandidatePool({
    ...sampled,
    templates: taskTemplates,
    executePlan: (index) => failOnServerError(index < maxN ? executeSample(options, orchestrator, sampled, index, config.seed) : executeTemplate(options, task, taskTemplates[index - maxN]!, index, config.seed)),
    catalog: environment.blocks,
    seed: config.seed,
    topK: config.topK,
    adaptiveMargin: config.adaptiveMargin,
    templateMargin: config.templateMargin,
    ...(referencePosition >= 0 && { referenceTemplate: maxN + referencePosition }),
    routeTemplates,
    objective,
    ...(options.rewardModel !== undefined && { rewardModel: options.rewardModel }),
    judge: environment.provider,
  });
  const outcomes: TaskOutcome[] = [];
  const fixed = await Promise.all(taskTemplates.map((_, position) => pool.fixedTokens(position)));
  const fixedPicks = await Promise.all(taskTemplates.map((_, position) => pool.pickOf(maxN + position)));
  for (const n of config.ns) {
    fixed.forEach(({ episode, usage }, position) => {
      requestedExecutions += 1;
      outcomes.push({
        taskId: task.id,
        suite: task.suite,
        n,
        strategy: `fixed:${taskTemplates[position]!.name}`,
        correct: episode.grade?.correct === true,
        executions: 1,
        tokens: { orchestrator: usage.orchestrator.totalTokens, execution: usage.execution.totalTokens, verification: 0 },
        pick: fixedPicks[position]!,
      });
    });
    for (const name of config.strategies) {
      const selection = await STRATEGIES[name].select(pool.contextFor(n));
      const tokens = pool.tokensOf(selection);
      const pick =
        selection.chosen === undefined
          ? undefined
          : await pool.pickOf(selection.chosen, { withScore: RANKING_STRATEGIES.has(name) && n > 1, ...(selection.uncertainty !== undefined && { uncertainty: selection.uncertainty }) });
      requestedExecutions += selection.executed.length;
      outcomes.push({
        taskId: task.id,
        suite: task.suite,
        n,
        strategy: name,
        correct: selection.correct,
        executions: selection.executed.length,
        tokens: { orchestrator: tokens.orchestrator.totalTokens, execution: tokens.execution.totalTokens, verification: tokens.verification.totalTokens },
        ...(selection.judgeFailed === true && { judgeFailed: true }),
        ...(pick !== undefined && { pick }),
      });
    }
  }
  const frontierOutcomes: FrontierOutcome[] = [];
  // The router alone has a frontier of its own where it prices every template from its record.
  const frontierStrategies = pool.templateRouteCosts() === undefined ? [rmWithTemplatesStrategy] : [rmWithTemplatesStrategy, rmTemplatesOnlyStrategy];
  for (const strategy of frontierStrategies) {
    for (const [point, pointObjective] of frontierPoints.entries()) {
      const selection = await strategy.select(pool.contextFor(maxN, pointObjective));
      const tokens = pool.tokensOf(selection);
      const pick = selection.chosen === undefined ? undefined : await pool.pickOf(selection.chosen);
      frontierOutcomes.push({
        taskId: task.id,
        suite: task.suite,
        n: maxN,
        point,
        ...(strategy === rmTemplatesOnlyStrategy && { strategy: 'rm-templates-only' as const }),
        correct: selection.correct,
        executions: selection.executed.length,
        tokens: { orchestrator: tokens.orchestrator.totalTokens, execution: tokens.execution.totalTokens, verification: tokens.verification.totalTokens },
        ...(pick !== undefined && { pick }),
      });
    }
  }
  return { taskId: task.id, outcomes, distinctExecutions: pool.executedCount, requestedExecutions, ...(frontierOutcomes.length > 0 && { frontierOutcomes }) };
}

/** Plan i is written with seed derive(seed, `<task>#<i>`) and sample index i. */
async function samplePlans(options: BestOfNOptions, orchestrator: Orchestrator, task: Task, count: number, seed: number): Promise<SampledPlans> {
  const written = await Promise.all(
    Array.from({ length: count }, (_, sampleIndex) =>
      orchestrator.writePlan(task, {
        sampleIndex,
        seed: deriveSeed(seed, `${task.id}#${sampleIndex}`),
        ...(options.signal !== undefined && { signal: options.signal }),
      }),
    ),
  );
  const zero: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  return { task, planTexts: written.map((plan) => plan.text), orchestratorUsage: written.map((plan) => plan.call?.usage ?? zero) };
}

/** Executes a template plan with a seed of its own (template name and task), so its draws do not depend on the sample. */
function executeTemplate(options: BestOfNOptions, task: Task, template: TemplatePlan, index: number, seed: number): Promise<Episode> {
  const { environment } = options;
  return runEpisode({
    task,
    planText: template.planText,
    blocks: environment.blocks,
    provider: environment.provider,
    grader: environment.grader,
    seed: deriveSeed(seed, `${task.id}#template:${template.name}`),
    sampleIndex: index,
    orchestrator: { name: 'template', checkpoint: template.name },
    ...(environment.retriever !== undefined && { retriever: environment.retriever }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
}

/** Executes plan i of a task's sample with the seed it was written with. */
function executeSample(options: BestOfNOptions, orchestrator: Orchestrator, sampled: SampledPlans, sampleIndex: number, seed: number): Promise<Episode> {
  const { task } = sampled;
  const { environment } = options;
  return runEpisode({
    task,
    planText: sampled.planTexts[sampleIndex] ?? '',
    blocks: environment.blocks,
    provider: environment.provider,
    grader: environment.grader,
    seed: deriveSeed(seed, `${task.id}#${sampleIndex}`),
    sampleIndex,
    orchestrator: orchestrator.ref,
    ...(orchestrator.dom !== undefined && { dom: orchestrator.dom }),
    ...(environment.retriever !== undefined && { retriever: environment.retriever }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
}
