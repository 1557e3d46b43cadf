import { addUsage, deriveSeed, emptyUsage, type Episode, hasEnsemble, isCostAware, ModelBehaviorError, type PlanEstimate, type RewardModel, routesTemplates, type Task, type TemplatePlan, type Usage, type UsageByRole, UserError } from '../core/index.js';
import { type ChatProvider, countTokens } from '../llm/index.js';
import { type BlockCatalog, parsePlan, renderParseResult } from '../plan/index.js';
import { DEFAULT_TEMPLATE_MARGIN } from '../rm/index.js';
import { sampleKind, type CandidatePick } from './candidate-pick.js';
import type { SelectionObjective } from './selection-objective.js';
import type { Selection, SelectionContext } from './selection-strategy.js';

/** The plans sampled for one task (the largest N), before anything executes. */
export interface SampledPlans {
  task: Task;
  /** Raw plan texts, in sample order. */
  planTexts: readonly string[];
  /** Tokens the orchestrator spent writing each plan (zeros for plans whose writing was not metered). */
  orchestratorUsage: readonly Usage[];
}

export interface CandidatePoolOptions extends SampledPlans {
  /** Executes pool candidate `index` (a sampled plan, or a template after them); called at most once per index. */
  executePlan(index: number): Promise<Episode>;
  /** Template plans added to the pool after the sampled plans (`pool: 'sampled+templates'`). */
  templates?: readonly TemplatePlan[];
  rewardModel?: RewardModel;
  /** Answers slot-`judge` calls (the environment's provider). */
  judge: ChatProvider;
  /** Resolves block names when plans are parsed for their canonical form. */
  catalog: BlockCatalog;
  /** Seed of the experiment; judge seeds derive from it, the task and N. @default 0 */
  seed?: number;
  /** @default 3 */
  topK?: number;
  /** @default 1 */
  adaptiveMargin?: number;
  /** `rm+templates`: a sample replaces the best template only when better by more than this many standard deviations of the model's heads. @default 1 */
  templateMargin?: number;
  /** `SelectionContext.referenceTemplate`. */
  referenceTemplate?: number;
  /** The template strategies choose their template by the reward model's template router (`SelectionContext.templateRoutes`). @default false */
  routeTemplates?: boolean;
  /** Counts the tokens a reward model reads. @default countTokens (o200k) */
  countTokens?: (text: string) => number;
  /** What the rm strategies maximise (`contextFor` may override it). @default { kind: 'accuracy' } */
  objective?: SelectionObjective;
}

/** The reward model's score of each plan text, checked to be one per plan (a remote model may answer with fewer). */
export async function scoreEach(rewardModel: RewardModel, question: string, texts: readonly string[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
  const scores = await rewardModel.score(question, texts, options);
  if (scores.length !== texts.length) throw new ModelBehaviorError(`reward model ${rewardModel.name} returned ${scores.length} scores for ${texts.length} plans; it must return one score per plan`);
  return scores;
}

/**
 * One task's candidates shared by every strategy and every N: the sampled plans, then any
 * template plans. Executions, reward-model scores and canonical texts are computed once, lazily,
 * and cached. `contextFor(n)` gives strategies the first n sampled candidates (and the
 * templates); `tokensOf(selection)` prices what a strategy did with the tokens of exactly the
 * plans it had written, executed and verified.
 *
 * Reward-model verification tokens are the tokens of the text a local model reads to score a
 * plan: the task question plus the plan's canonical rendering (an invalid plan renders as its
 * diagnostic codes), counted per plan scored.
 */
export class CandidatePool {
  private readonly executions = new Map<number, Promise<Episode>>();
  private readonly settled = new Map<number, Episode>();
  private allScores: Promise<number[]> | undefined;
  private allMemberScores: Promise<number[][] | undefined> | undefined;
  private allEstimates: Promise<PlanEstimate[]> | undefined;
  /** The template router's probabilities once asked (`templateRoutes`); null before. */
  private routes: number[] | undefined | null = null;
  /** The router's record of template costs once asked (`templateRouteCosts`); null before. */
  private routeCosts: number[] | undefined | null = null;
  private readonly poolTexts: readonly string[];
  private readonly canonicalTexts: string[];
  private readonly valid: boolean[];
  private readonly kinds: string[];
  private readonly scoreTokenCounts: number[];
  private readonly questionTokens: number;
  private readonly templates: readonly TemplatePlan[];

  constructor(private readonly options: CandidatePoolOptions) {
    const { planTexts, catalog, task } = options;
    this.templates = options.templates ?? [];
    this.poolTexts = [...planTexts, ...this.templates.map((template) => template.planText)];
    const count = options.countTokens ?? countTokens;
    const parsed = this.poolTexts.map((text) => parsePlan(text, { catalog }));
    this.canonicalTexts = parsed.map((result) => renderParseResult(result, catalog));
    this.valid = parsed.map((result) => result.ok);
    // A sample whose canonical plan is a template's is that template's kind (the same plan).
    const templateOfCanonical = new Map<string, string>();
    this.templates.forEach((template, position) => {
      const canonical = this.canonicalTexts[planTexts.length + position]!;
      if (!templateOfCanonical.has(canonical)) templateOfCanonical.set(canonical, template.name);
    });
    this.kinds = parsed.map((result, index) =>
      index >= planTexts.length ? this.templates[index - planTexts.length]!.name : (templateOfCanonical.get(this.canonicalTexts[index]!) ?? sampleKind(result)),
    );
    const questionTokens = count(task.question);
    this.questionTokens = questionTokens;
    this.scoreTokenCounts = this.canonicalTexts.map((text) => questionTokens + count(text));
  }

  /** The task the candidates answer. */
  get task(): Task {
    return this.options.task;
  }

  /** Plans sampled for the task (the largest N this pool serves). */
  get size(): number {
    return this.options.planTexts.length;
  }

  /** Template plans in the pool, with their pool indices (after the sampled plans). */
  get templateIndices(): { name: string; index: number }[] {
    return this.templates.map((template, position) => ({ name: template.name, index: this.size + position }));
  }

  /**
   * The record of a pick (`CandidatePick`): where candidate `index` came from and its kind, with
   * its reward-model score when `withScore` (the scores are computed once for the pool).
   */
  async pickOf(index: number, options: { withScore?: boolean; uncertainty?: number } = {}): Promise<CandidatePick> {
    const kind = this.kinds[index];
    if (kind === undefined) throw new RangeError(`candidate ${index} is outside 0..${this.poolTexts.length - 1}`);
    const pick: CandidatePick = { index, source: index < this.size ? 'sample' : 'template', kind };
    if (options.withScore === true) pick.score = (await this.scores())[index]!;
    if (options.uncertainty !== undefined) pick.uncertainty = options.uncertainty;
    return pick;
  }

  /** Executes pool candidate `index` once; concurrent and later calls share the same episode. */
  execute(index: number): Promise<Episode> {
    const last = this.poolTexts.length - 1;
    if (!Number.isInteger(index) || index < 0 || index > last) throw new RangeError(`candidate ${index} is outside 0..${last}`);
    let execution = this.executions.get(index);
    if (execution === undefined) {
      execution = this.options.executePlan(index).then((episode) => {
        this.settled.set(index, episode);
        return episode;
      });
      this.executions.set(index, execution);
    }
    return execution;
  }

  /** Distinct plans executed so far, over all strategies and N. */
  get executedCount(): number {
    return this.executions.size;
  }

  /** Scores every pool plan in one call (a plan's score does not depend on the others). */
  scores(): Promise<number[]> {
    const { rewardModel, task } = this.options;
    if (rewardModel === undefined) throw new UserError('the rm strategies need a reward model: pass rewardModel to the CandidatePool or to runBestOfN (orchrm bon: --rm <model file>)');
    this.allScores ??= scoreEach(rewardModel, task.question, this.poolTexts);
    return this.allScores;
  }

  /**
   * Per pool candidate, the scores of the reward model's ensemble heads (one call for the whole
   * pool), or undefined when the model has no ensemble.
   */
  memberScores(): Promise<number[][] | undefined> {
    const { rewardModel, task } = this.options;
    if (rewardModel === undefined || !hasEnsemble(rewardModel)) return Promise.resolve(undefined);
    const texts = this.poolTexts;
    this.allMemberScores ??= rewardModel.scoreMembers(task.question, texts).then((members) => {
      if (members.length !== texts.length) throw new ModelBehaviorError(`reward model ${rewardModel.name} returned head scores for ${members.length} plans, not ${texts.length}; it must return one list per plan`);
      return members;
    });
    return this.allMemberScores;
  }

  /**
   * Per template in the pool (in pool order), the reward model's template router's success
   * probability on this task; undefined unless `routeTemplates` is set, the model has a router
   * and the router knows every template in the pool and the task's suite.
   */
  templateRoutes(): readonly number[] | undefined {
    const { rewardModel, task, routeTemplates = false } = this.options;
    if (!routeTemplates || rewardModel === undefined || !routesTemplates(rewardModel) || this.templates.length === 0) return undefined;
    // Every strategy at every N asks: read the task once.
    if (this.routes === null) {
      const routes = rewardModel.routeTemplates(task.question, task.suite, this.templates.map((template) => template.name));
      this.routes = routes.every((route) => route !== undefined) ? (routes as number[]) : undefined;
    }
    return this.routes;
  }

  /**
   * Per template in the pool (in pool order), the execution tokens the router expects it to spend
   * on the task (`TemplateRoutingRewardModel.templateExecutionTokens`); undefined unless
   * `templateRoutes` is defined and the router prices every template (a router written before
   * records carried tokens does not).
   */
  templateRouteCosts(): readonly number[] | undefined {
    const { rewardModel, task } = this.options;
    if (this.templateRoutes() === undefined || rewardModel === undefined || !routesTemplates(rewardModel) || rewardModel.templateExecutionTokens === undefined) return undefined;
    if (this.routeCosts === null) {
      const costs = rewardModel.templateExecutionTokens(task.question, task.suite, this.templates.map((template) => template.name));
      this.routeCosts = costs.every((cost) => cost !== undefined) ? (costs as number[]) : undefined;
    }
    return this.routeCosts;
  }

  /**
   * What reading the sampled plans is expected to add to the router's priced pick at this price
   * (`TemplateRoutingRewardModel.readingGain`, at the pool's template margin); undefined unless
   * `templateRouteCosts` is defined and the model has an estimate for the task's suite.
   */
  readingGain(pricePerToken: number): number | undefined {
    const { rewardModel, task, templateMargin = DEFAULT_TEMPLATE_MARGIN } = this.options;
    if (this.templateRouteCosts() === undefined || rewardModel === undefined || !routesTemplates(rewardModel)) return undefined;
    return rewardModel.readingGain?.(task.suite, pricePerToken, templateMargin);
  }

  /**
   * Whether a sampled plan may replace the router's pick on the task
   * (`TemplateRoutingRewardModel.samplesMayReplace`, at the pool's template margin); true unless
   * `templateRoutes` is defined and the model's record says its switches did not pay on the suite.
   */
  samplesMayReplace(): boolean {
    const { rewardModel, task, templateMargin = DEFAULT_TEMPLATE_MARGIN } = this.options;
    if (this.templateRoutes() === undefined || rewardModel === undefined || !routesTemplates(rewardModel)) return true;
    return rewardModel.samplesMayReplace?.(task.suite, templateMargin) ?? true;
  }

  /**
   * Per pool candidate, the reward model's calibrated success probability and predicted execution
   * tokens (one call for the whole pool); a UserError when the model cannot estimate them.
   */
  estimates(): Promise<PlanEstimate[]> {
    const { rewardModel, task } = this.options;
    if (rewardModel === undefined || !isCostAware(rewardModel)) {
      return Promise.reject(
        new UserError(
          `the price and cheapest-within objectives need a reward model with a cost head and a calibration${rewardModel === undefined ? '' : `, and ${rewardModel.name} has none`}: train one with orchrm rm train on a mined pair dataset (model format 3), or use --objective accuracy`,
        ),
      );
    }
    const texts = this.poolTexts;
    this.allEstimates ??= rewardModel.estimate(task.question, texts).then((estimates) => {
      if (estimates.length !== texts.length) throw new ModelBehaviorError(`reward model ${rewardModel.name} returned ${estimates.length} estimates for ${texts.length} plans; it must return one per plan`);
      return estimates;
    });
    return this.allEstimates;
  }

  /** The context a strategy sees at N = n, with the pool's objective or `objective`. */
  contextFor(n: number, objective?: SelectionObjective): SelectionContext {
    if (!Number.isInteger(n) || n < 1 || n > this.size) throw new RangeError(`N must be in 1..${this.size}, got ${n}`);
    const { task, judge, seed = 0, topK = 3, adaptiveMargin = 1, templateMargin = DEFAULT_TEMPLATE_MARGIN, referenceTemplate } = this.options;
    const templates = this.templateIndices;
    return {
      task,
      n,
      planTexts: this.options.planTexts.slice(0, n),
      canonicalTexts: this.canonicalTexts.slice(0, n),
      valid: this.valid.slice(0, n),
      templates,
      execute: (index) => {
        if (index >= n && index < this.size) throw new RangeError(`candidate ${index} is not among the first ${n}`);
        return this.execute(index);
      },
      scores: () => this.scores(),
      memberScores: () => this.memberScores(),
      templateRoutes: () => this.templateRoutes(),
      templateRouteCosts: () => this.templateRouteCosts(),
      readingGain: (pricePerToken) => this.readingGain(pricePerToken),
      samplesMayReplace: () => this.samplesMayReplace(),
      scoreTokens: (index) => this.scoreTokenCounts[index] ?? 0,
      questionTokens: this.questionTokens,
      judge,
      seed: deriveSeed(seed, `judge:${task.id}:${n}`),
      topK,
      adaptiveMargin,
      templateMargin,
      ...(referenceTemplate !== undefined && { referenceTemplate }),
      objective: objective ?? this.options.objective ?? { kind: 'accuracy' },
      estimates: () => this.estimates(),
    };
  }

  /**
   * Tokens of one strategy's selection: the plans it had written (and the templates' writing
   * when it used them), the executions it asked for (each counted in full, even when another
   * strategy ran the same plan first) and its verification.
   */
  tokensOf(selection: Selection): UsageByRole {
    const written = this.options.orchestratorUsage.slice(0, selection.plansWritten);
    const templateWriting = selection.usedTemplates === true ? this.templates.map((template) => template.orchestratorUsage) : [];
    const orchestrator = addUsage(emptyUsage(), ...written, ...templateWriting);
    const execution = addUsage(
      emptyUsage(),
      ...selection.executed.map((index) => {
        const episode = this.settled.get(index);
        if (episode === undefined) throw new RangeError(`candidate ${index} was reported executed but never ran`);
        return episode.usage.execution;
      }),
    );
    return { orchestrator, execution, verification: addUsage(emptyUsage(), selection.verification) };
  }

  /** The tokens of running template `position` as a fixed plan: its writing and its execution. */
  async fixedTokens(position: number): Promise<{ usage: UsageByRole; episode: Episode }> {
    const template = this.templates[position];
    if (template === undefined) throw new RangeError(`template ${position} is not in the pool`);
    const episode = await this.execute(this.size + position);
    return { episode, usage: { orchestrator: addUsage(emptyUsage(), template.orchestratorUsage), execution: addUsage(emptyUsage(), episode.usage.execution), verification: emptyUsage() } };
  }
}
