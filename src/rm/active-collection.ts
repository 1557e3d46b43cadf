import { deriveSeed, type EventSink, type LlmCallRecord, type PlanTemplateLibrary, type Task, type Usage, UserError } from '../core/index.js';
import { collectEpisodes, TEMPLATE_ORCHESTRATOR, type CollectEvent, type CollectResult } from '../collect/index.js';
import type { Environment } from '../environment/index.js';
import type { Orchestrator, WrittenPlan } from '../orchestrator/index.js';
import { minePairs, type PairMiningConfigInput } from '../pairs/index.js';
import type { Store } from '../store/index.js';
import { headDifference } from './bootstrap-heads.js';
import type { BtConfigInput } from './bt-config.js';
import type { PlanOutcome } from './cost-head.js';
import { loadTrainingPairs } from './eval/index.js';
import { chooseTemplatesByRouter } from './router-template-choice.js';
import { trainRewardModel } from './train-reward-model.js';
import type { TrainedRewardModel } from './trained-reward-model.js';

export interface ActiveCollectOptions {
  environment: Environment;
  /** The task pool, in order: round r collects the r-th `1/rounds` of it. */
  tasks: readonly Task[];
  /** @default environment.orchestrator() */
  orchestrator?: Orchestrator;
  /** The collection's own store (the model of each round is trained on every pair it holds). */
  store: Store;
  /** Rounds, at least 2: the first collects passively, every later one with the model of the rounds before. */
  rounds: number;
  /** Plans sampled and executed per task in the first round. @default 4 */
  firstRoundPlans?: number;
  /** Plans written per task in later rounds (orchestrator tokens only), among which the model chooses. @default 8 */
  candidatesPerTask?: number;
  /**
   * Of those, plans executed per task (4 of 8 taught the model more per token than 2 of 8 on default, docs/rm.md); 0
   * only with `templates.choice: 'router'`: later rounds then write no plan and run the router's templates alone.
   * @default 4
   */
  plansPerTask?: number;
  /** @default 4 */
  concurrency?: number;
  /** @default 0 */
  seed?: number;
  /** Training of each round's model (bootstrap heads are needed: `ensembleSize` at least 2). @default { tune: false, ensembleSize: 5 }, with `encoder: TEMPLATE_CHOICE_ENCODER` when templates are chosen */
  training?: BtConfigInput;
  /** Mining of each round's pairs. @default { seed } */
  mining?: PairMiningConfigInput;
  /**
   * Template plans executed beside the sampled ones, `perTask` of them on every task (issue 22:
   * a template the model has not seen on such tasks). Round 1 runs a seeded draw of them per
   * task; each later round the model's own first choice among the templates, then those most
   * likely to beat it by its bootstrap heads (the highest mean plus one sd of their score minus
   * the first choice's).
   *
   * With `choice: 'router'` the template router chooses instead (issue 22: rm+templates' accuracy
   * is mostly the router's, which needs each template's outcomes on many tasks): round 1 runs
   * every template on each of its tasks, and each later round at most `perTask` per task, those a
   * router fitted on the earlier rounds' template episodes, and its bootstrap refits, say could
   * still be the task's best (`chooseTemplatesByRouter`); a task whose best it is sure of runs one.
   * @default choice 'heads'
   */
  templates?: ActiveTemplates;
  /**
   * Tokens the whole collection may spend, every role of every round (issue 22 judges a collection
   * by them). Round 1 runs whole; before each later round, its tasks are cut to the longest prefix
   * whose expected tokens fit in what is left (`affordableTasks`), and the collection ends at the
   * first round with none. Expected, not metered: a round can overshoot by its estimates' error.
   * @default no budget
   */
  budget?: number;
  /** Recorded with each round's run. */
  config?: Record<string, unknown>;
  events?: EventSink<CollectEvent | ActiveRoundEvent>;
  signal?: AbortSignal;
}

/** How an active collection runs template plans (`ActiveCollectOptions.templates`). */
export interface ActiveTemplates {
  library: PlanTemplateLibrary;
  /** Templates per task (with `choice: 'router'`, at most this many per task after round 1, which runs them all). */
  perTask: number;
  /** Who chooses them after round 1: the round model's bootstrap heads, or the template router. @default 'heads' */
  choice?: 'heads' | 'router';
}

/**
 * The encoder of each round's model when it chooses templates: a template's worth depends on the
 * task (issue 21), which the `route` and `popularity` items cross with the plan's shape at full
 * weight; the default `shape` encoder ranks templates nearly task-blind (docs/rm.md).
 */
export const TEMPLATE_CHOICE_ENCODER = 'shape,route,popularity';

/** One round of an active collection. */
export interface ActiveRound {
  round: number;
  runId: string;
  tasks: number;
  /** The round's collection, as `collectEpisodes` summarised it (its tokens include every candidate written, executed or not). */
  summary: CollectResult;
  /** Orchestrator tokens of the candidates written and not executed (included in `summary.tokens`). */
  unexecutedWritingTokens: number;
}

/** Emitted after each round. */
export type ActiveRoundEvent = { type: 'active-round-end'; round: ActiveRound; rounds: number };

/** The written candidates of one task and the ones chosen for execution. */
interface TaskChoice {
  chosen: WrittenPlan[];
  /** Writing tokens of the candidates not chosen. */
  unexecuted: Usage;
}

/**
 * Active collection: collects in rounds and spends the later rounds' execution on the plans
 * whose outcome teaches the model most. Round 1 collects its tasks passively (`firstRoundPlans`
 * sampled plans each, executed). Before each later round it mines the store's episodes, trains a
 * reward model with bootstrap heads, writes `candidatesPerTask` plans per task of the round
 * (orchestrator tokens only) and executes `plansPerTask` of them: the plan the model would select
 * (highest mean score), then the ones its bootstrap heads disagree on most (the largest spread
 * of their scores), distinct texts only. Every plan written is billed: the writing tokens of the
 * candidates not executed are added to the first executed plan's orchestrator call of its task,
 * so the store's per-task tokens are what the task cost.
 *
 * Resumable as `collect` is: each round is a collection run continued when its fingerprint is in
 * the store (a completed round is only summarised), and the model and candidates of a round are
 * the same again (training and sampling are seeded; a real server needs its response cache for
 * the candidates to be written again for free).
 *
 * @example
 * const rounds = await collectActively({ environment, tasks: environment.tasks('train', 600), store, rounds: 3 });
 */
export async function collectActively(options: ActiveCollectOptions): Promise<ActiveRound[]> {
  const { tasks, store, rounds, firstRoundPlans = 4, candidatesPerTask = 8, plansPerTask = 4, concurrency = 4, seed = 0 } = options;
  if (!Number.isInteger(rounds) || rounds < 2) throw new UserError(`active collection needs at least 2 rounds (the first is passive), got ${rounds}`);
  if (tasks.length < rounds) throw new UserError(`${tasks.length} tasks cannot be split into ${rounds} rounds`);
  const { templates } = options;
  const byRouter = templates?.choice === 'router';
  // 0 sampled plans after round 1 is a collection of the router's templates alone; otherwise a pair at least.
  if (!(plansPerTask === 0 && byRouter) && (plansPerTask < 2 || candidatesPerTask < plansPerTask)) {
    throw new UserError(
      `active collection executes at least 2 plans per task (a pair) out of at least as many candidates, or none with templates chosen by the router; got ${plansPerTask} of ${candidatesPerTask}`,
    );
  }
  if (options.budget !== undefined && !(Number.isFinite(options.budget) && options.budget > 0)) throw new UserError(`an active collection's budget is a positive number of tokens, got ${options.budget}`);
  if (templates !== undefined && !(Number.isInteger(templates.perTask) && templates.perTask >= 1 && templates.perTask <= templates.library.names.length)) {
    throw new UserError(`templates per task must be a whole number from 1 to the library's ${templates.library.names.length}, got ${templates.perTask}`);
  }
  const orchestrator = options.orchestrator ?? options.environment.orchestrator();
  // The heads read the task only to rank templates; when the router chooses them, they rank sampled plans alone.
  const training: BtConfigInput = { tune: false, ensembleSize: 5, seed, ...(templates !== undefined && !byRouter && { encoder: TEMPLATE_CHOICE_ENCODER }), ...options.training };
  // Every task's text is kept, run or not: a budget may end the collection before a round reaches
  // it, and the router counts names in every text it was given (`loadTaskTexts`).
  store.upsertTasks(tasks);
  const results: ActiveRound[] = [];
  const ledger = new EarlierRounds();
  for (let round = 1; round <= rounds; round++) {
    options.signal?.throwIfAborted();
    let roundTasks = tasks.slice(Math.floor(((round - 1) * tasks.length) / rounds), Math.floor((round * tasks.length) / rounds));
    const roundSeed = deriveSeed(seed, `active-round:${round}`);
    const earlierRuns = results.map((earlier) => earlier.runId);
    // The router's choice comes before any plan is written, so that the budget can cut the round's tasks first.
    const routerChoice = round > 1 && templates !== undefined && byRouter ? chooseTemplatesByRouter(ledger.templateOutcomes, roundTasks, { names: templates.library.names, perTask: templates.perTask, seed: roundSeed }) : undefined;
    if (round > 1 && options.budget !== undefined) {
      roundTasks = affordableTasks(ledger, roundTasks, options.budget, {
        plansPerTask,
        candidatesPerTask,
        templates: templates === undefined ? undefined : { perTask: templates.perTask, ...(routerChoice !== undefined && { chosen: routerChoice.chosen, executionTokens: routerChoice.expectedExecutionTokens }) },
      });
      // Nothing more fits: the rounds left would spend past the budget.
      if (roundTasks.length === 0) break;
    }
    const common = {
      environment: options.environment,
      tasks: roundTasks,
      store,
      concurrency,
      seed: roundSeed,
      sameFingerprint: 'continue' as const,
      config: {
        ...options.config,
        active: {
          round,
          rounds,
          candidatesPerTask,
          plansPerTask,
          firstRoundPlans,
          ...(templates !== undefined && { templatesPerTask: templates.perTask, templateChoice: templates.choice ?? 'heads' }),
          ...(options.budget !== undefined && { budget: options.budget }),
        },
      },
      ...(options.signal && { signal: options.signal }),
      ...(options.events && { events: options.events }),
    };
    let summary: CollectResult;
    let unexecutedWritingTokens = 0;
    if (round === 1) {
      // The router starts from every template on every task of round 1; the heads from a seeded draw.
      const firstTemplates = templates === undefined ? undefined : byRouter ? { library: templates.library, share: 1 } : { library: templates.library, share: 1, perTask: drawnTemplates(roundTasks, templates, roundSeed) };
      summary = await collectEpisodes({ ...common, orchestrator, plansPerTask: firstRoundPlans, ...(firstTemplates !== undefined && { templates: firstTemplates }) });
    } else {
      let choices = new Map<string, TaskChoice>();
      let chosenTemplates = routerChoice?.chosen;
      // With no sampled plans after round 1 (the router's templates only), no round model is needed.
      if (plansPerTask > 0) {
        const model = await trainRoundModel(store, earlierRuns, training, options.mining ?? { seed }, options.signal);
        try {
          choices = await chooseCandidates(model, orchestrator, roundTasks, { candidatesPerTask, plansPerTask, seed: roundSeed, ...(options.signal && { signal: options.signal }) });
          if (templates !== undefined && !byRouter) chosenTemplates = await chooseTemplates(model, roundTasks, templates, options.signal);
        } finally {
          model.close();
        }
      }
      for (const choice of choices.values()) unexecutedWritingTokens += choice.unexecuted.totalTokens;
      const roundTemplates = templates === undefined || chosenTemplates === undefined ? undefined : { library: templates.library, share: 1, perTask: chosenTemplates };
      summary = await collectEpisodes({ ...common, orchestrator: chosenPlans(orchestrator, choices), plansPerTask, ...(roundTemplates !== undefined && { templates: roundTemplates }) });
    }
    const entry: ActiveRound = { round, runId: summary.runId, tasks: roundTasks.length, summary, unexecutedWritingTokens };
    results.push(entry);
    ledger.add(store, summary.runId);
    options.events?.({ type: 'active-round-end', round: entry, rounds });
  }
  return results;
}

/**
 * Mines the episodes of the earlier rounds' runs, run by run (their tasks are disjoint, so no pair
 * is lost; only the source reliabilities are estimated per run), and trains a model with bootstrap
 * heads on the pairs. The round's own episodes are never read: a resumed round chooses as it did.
 */
async function trainRoundModel(store: Store, runIds: readonly string[], training: BtConfigInput, mining: PairMiningConfigInput, signal: AbortSignal | undefined): Promise<TrainedRewardModel> {
  const pairs = runIds.flatMap((runId) => loadTrainingPairs(store, minePairs(store, { config: mining, filter: { runId } }).datasetId));
  if (pairs.length === 0) throw new UserError('the first round yielded no pairs to train on; give the first round more tasks or plans per task');
  const { model } = await trainRewardModel(pairs, training, { name: 'orchrm-active-round', ...(signal && { signal }) });
  return model;
}

/**
 * What the finished rounds' runs spent and taught, read from the store once per run as each round
 * ends (reading every earlier run again each round would grow with rounds times episodes): the
 * tokens the budget counts, the means `affordableTasks` prices a task at, and the graded template
 * episodes the router reads (`templateOutcomes`).
 */
class EarlierRounds {
  /** Every token of every episode so far, every role. */
  spent = 0;
  /** Sampled-plan episodes and their execution plus verification tokens. */
  readonly sampled = { episodes: 0, run: 0 };
  /** Round 1's sampled episodes (one written plan each) and their writing tokens. */
  readonly written = { episodes: 0, tokens: 0 };
  /** Template episodes, all their tokens, and those of roles other than execution. */
  readonly template = { episodes: 0, total: 0, other: 0 };
  /**
   * The graded template episodes, as the router reads them. All count as train-split outcomes:
   * choosing what to collect is not judging a model, and the collection's own split is decided
   * only when its pairs are mined.
   */
  readonly templateOutcomes: PlanOutcome[] = [];
  private runs = 0;

  add(store: Store, runId: string): void {
    const first = this.runs === 0;
    this.runs += 1;
    for (const episode of store.iterateEpisodes({ runId }, { withCalls: false })) {
      const { orchestrator, execution, verification } = episode.usage;
      const total = orchestrator.totalTokens + execution.totalTokens + verification.totalTokens;
      this.spent += total;
      if (episode.orchestrator.name === TEMPLATE_ORCHESTRATOR) {
        this.template.episodes += 1;
        this.template.total += total;
        this.template.other += total - execution.totalTokens;
        if (episode.status !== 'server_error' && episode.grade !== undefined && episode.orchestrator.checkpoint !== undefined) {
          this.templateOutcomes.push({
            taskId: episode.task.id,
            question: episode.task.question,
            ...(episode.task.suite !== undefined && { suite: episode.task.suite }),
            planText: episode.planText,
            template: episode.orchestrator.checkpoint,
            executionTokens: execution.totalTokens,
            correct: episode.grade.correct,
            split: 'train',
          });
        }
        continue;
      }
      this.sampled.episodes += 1;
      this.sampled.run += execution.totalTokens + verification.totalTokens;
      // Later rounds bill unexecuted candidates on their first plan; round 1's writing is one plan each.
      if (first) {
        this.written.episodes += 1;
        this.written.tokens += orchestrator.totalTokens;
      }
    }
  }
}

/**
 * The longest prefix of a round's tasks whose expected tokens fit in what `budget` leaves after the
 * earlier rounds' runs (`EarlierRounds.spent`: their episodes' tokens, every role). A task is
 * expected to spend, at the earlier rounds' means: per executed sampled plan, its execution and
 * verification; per candidate written, a plan's writing (round 1's sampled episodes, each one
 * written plan); and for its templates, the router's estimate of their execution tokens plus the
 * other roles' mean per template episode, or without the router's choice `perTask` template
 * episodes at their mean.
 */
function affordableTasks(
  earlier: EarlierRounds,
  tasks: readonly Task[],
  budget: number,
  settings: { plansPerTask: number; candidatesPerTask: number; templates: { perTask: number; chosen?: ReadonlyMap<string, readonly number[]>; executionTokens?: ReadonlyMap<string, number> } | undefined },
): Task[] {
  const { sampled, written, template } = earlier;
  const mean = (sum: number, count: number) => (count === 0 ? 0 : sum / count);
  const samplePart = settings.plansPerTask * mean(sampled.run, sampled.episodes) + settings.candidatesPerTask * mean(written.tokens, written.episodes);
  const templatesOf = (task: Task): number => {
    const { templates } = settings;
    if (templates === undefined) return 0;
    const execution = templates.executionTokens?.get(task.id);
    const chosen = templates.chosen?.get(task.id);
    if (execution === undefined || chosen === undefined) return templates.perTask * mean(template.total, template.episodes);
    return execution + chosen.length * mean(template.other, template.episodes);
  };
  const affordable: Task[] = [];
  let expected = earlier.spent;
  for (const task of tasks) {
    expected += (settings.plansPerTask > 0 ? samplePart : 0) + templatesOf(task);
    if (expected > budget) break;
    affordable.push(task);
  }
  return affordable;
}

/**
 * Per task: writes the candidates, scores them with the model and its bootstrap heads, and keeps
 * the model's pick and then the distinct texts its heads disagree on most.
 */
async function chooseCandidates(
  model: TrainedRewardModel,
  orchestrator: Orchestrator,
  tasks: readonly Task[],
  settings: { candidatesPerTask: number; plansPerTask: number; seed: number; signal?: AbortSignal },
): Promise<Map<string, TaskChoice>> {
  const choices = new Map<string, TaskChoice>();
  for (const task of tasks) {
    settings.signal?.throwIfAborted();
    const written: WrittenPlan[] = [];
    for (let index = 0; index < settings.candidatesPerTask; index++) {
      written.push(await orchestrator.writePlan(task, { sampleIndex: index, seed: deriveSeed(settings.seed, `${task.id}#candidate:${index}`), ...(settings.signal && { signal: settings.signal }) }));
    }
    const texts = written.map((plan) => plan.text);
    const [means, members] = await Promise.all([model.score(task.question, texts), model.scoreMembers(task.question, texts)]);
    const spread = members.map((scores) => standardDeviation(scores));
    const order = [...written.keys()];
    const pick = order.reduce((best, index) => ((means[index] ?? -Infinity) > (means[best] ?? -Infinity) ? index : best), 0);
    const rest = order.filter((index) => index !== pick).sort((a, b) => (spread[b] ?? 0) - (spread[a] ?? 0) || a - b);
    const chosenIndices = [pick];
    const seen = new Set([texts[pick]]);
    for (const index of rest) {
      if (chosenIndices.length === settings.plansPerTask) break;
      if (seen.has(texts[index])) continue;
      seen.add(texts[index]);
      chosenIndices.push(index);
    }
    // Fewer distinct texts than plans to execute: repeat the pick's alternatives in order (still a pair).
    for (const index of rest) if (chosenIndices.length < settings.plansPerTask && !chosenIndices.includes(index)) chosenIndices.push(index);
    const unexecuted = order.filter((index) => !chosenIndices.includes(index)).reduce((sum, index) => addUsage(sum, written[index]!.call?.usage), { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    choices.set(task.id, { chosen: chosenIndices.map((index) => written[index]!), unexecuted });
  }
  return choices;
}

/** Round 1's templates: per task, the `perTask` positions with the smallest seeded hashes (a uniform draw, stable per task). */
function drawnTemplates(tasks: readonly Task[], templates: { library: PlanTemplateLibrary; perTask: number }, seed: number): Map<string, number[]> {
  const positions = [...templates.library.names.keys()];
  return new Map(
    tasks.map((task) => {
      const hash = (position: number) => deriveSeed(seed, `${task.id}#template:${templates.library.names[position]}`);
      return [task.id, [...positions].sort((a, b) => hash(a) - hash(b) || a - b).slice(0, templates.perTask).sort((a, b) => a - b)];
    }),
  );
}

/**
 * Later rounds' templates: per task, the template the model would pick among them (highest mean
 * score), then the ones most likely to beat that pick by its bootstrap heads: the highest mean
 * plus one sd of the heads' score difference to the pick.
 */
async function chooseTemplates(model: TrainedRewardModel, tasks: readonly Task[], templates: { library: PlanTemplateLibrary; perTask: number }, signal: AbortSignal | undefined): Promise<Map<string, number[]>> {
  const chosen = new Map<string, number[]>();
  for (const task of tasks) {
    signal?.throwIfAborted();
    const texts = (await templates.library.plansFor(task)).map((plan) => plan.planText);
    const [means, members] = await Promise.all([model.score(task.question, texts), model.scoreMembers(task.question, texts)]);
    const order = [...texts.keys()];
    const pick = order.reduce((best, index) => ((means[index] ?? -Infinity) > (means[best] ?? -Infinity) ? index : best), 0);
    const chance = (index: number) => {
      const { mean, spread } = headDifference(members[index] ?? [], members[pick] ?? []);
      return mean + spread;
    };
    const challengers = order.filter((index) => index !== pick).map((index) => ({ index, chance: chance(index) })).sort((a, b) => b.chance - a.chance || a.index - b.index);
    chosen.set(task.id, [pick, ...challengers.slice(0, templates.perTask - 1).map((challenger) => challenger.index)].sort((a, b) => a - b));
  }
  return chosen;
}

/** An orchestrator that hands out the chosen plans of each task, sample by sample, under the real orchestrator's name. */
function chosenPlans(orchestrator: Orchestrator, choices: ReadonlyMap<string, TaskChoice>): Orchestrator {
  return {
    ref: orchestrator.ref,
    format: orchestrator.format,
    dom: orchestrator.dom,
    async writePlan(task, { sampleIndex }) {
      const choice = choices.get(task.id);
      const plan = choice?.chosen[sampleIndex];
      if (choice === undefined || plan === undefined) throw new UserError(`no chosen plan ${sampleIndex} for task ${task.id}`);
      if (sampleIndex !== 0 || choice.unexecuted.totalTokens === 0) return plan;
      // The first executed plan of a task carries the writing of the candidates that were not executed.
      const call: LlmCallRecord | undefined = plan.call === undefined ? undefined : { ...plan.call, usage: addUsage(plan.call.usage, choice.unexecuted) };
      return call === undefined ? plan : { ...plan, call };
    },
  };
}

function addUsage(sum: Usage, usage: Usage | undefined): Usage {
  if (usage === undefined) return sum;
  return { promptTokens: sum.promptTokens + usage.promptTokens, completionTokens: sum.completionTokens + usage.completionTokens, totalTokens: sum.totalTokens + usage.totalTokens };
}

function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
}
