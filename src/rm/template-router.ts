import { z } from 'zod';
import { mathjs, type PairSplit, sigmoid } from '../core/index.js';
import type { PlanOutcome } from './cost-head.js';
import { MAX_POPULARITY_NAME_LENGTH, PopularityTableSchema, type PopularityTable } from './features/encoder-spec.js';
import { fitPopularity, popularityBucket, popularityCounts, relationMeans, relativePopularityBucket, routeFacts } from './features/routing-encoders.js';
import { analyzeTask } from './features/task-analysis.js';
import { taskNames } from './features/task-encoders.js';
import { TASK_SHAPE_VERSION } from './features/task-shape.js';

/**
 * L2 strengths tried, in pseudo-examples per template: the one with the lowest log loss on the
 * validation split's template episodes is kept (1 without validation episodes).
 */
export const ROUTER_L2_CANDIDATES = [0.1, 1, 10] as const;
/** Graded train-split episodes a template needs before the router learns it. */
export const MIN_ROUTER_EPISODES = 10;
const MAX_ROUTER_FACTS = 4096;
/** Cost facts a router prices templates over; the ridge fit solves a system of this size. */
const MAX_COST_FACTS = 512;
/** The ridge fit's L2 strength, in pseudo-episodes per template. */
const COST_L2 = 1;
/** Task facts that say how big a task is (the asked quantity's depth, the quantities needed, the relation chain's length): execution tokens grow with them. */
const SIZE_FACT = /^(asked_depth|needed|relation_chain)=/;
const MAX_ROUTER_TEMPLATES = 256;
const MAX_GAIN_PRICES = 64;
const MAX_NAME_LENGTH = 200;
/** The fact every task of a suite has: the suite's own intercept, and how a router knows which suites it has seen. */
const SUITE_FACT = 'suite=';
/** Full-batch gradient steps per fit: the problem is small (tens of facts), so a fixed count converges. */
const STEPS = 400;
const STEP_SIZE = 0.5;

/**
 * What reading the sampled plans is expected to add to the router's priced pick, per suite, on a
 * grid of prices per token (`estimateReadingGain`). Lengths and order are checked with the router
 * (`TemplateRouterDataSchema`).
 */
export const ReadingGainSchema = z.strictObject({
  /** The `--template-margin` the samples had to pass the router's pick by: the estimate holds for that margin only. */
  margin: z.number().min(0).finite(),
  prices: z.array(z.number().positive().finite()).min(1).max(MAX_GAIN_PRICES),
  suites: z
    .array(
      z.strictObject({
        suite: z.string().max(MAX_NAME_LENGTH),
        /** Collection tasks (train and validation) the estimate is the mean over. */
        tasks: z.number().int().min(1),
        /** Mean sampled plans per such task. */
        samplesPerTask: z.number().min(0).finite(),
        /** By price: the mean expected gain, in success probability less price x tokens. */
        gains: z.array(z.number().min(0).max(1)).max(MAX_GAIN_PRICES),
      }),
    )
    .max(MAX_ROUTER_FACTS),
});
export type ReadingGain = z.infer<typeof ReadingGainSchema>;

/**
 * How `rm+templates`' switches from the router's pick to a sampled plan fared on the collection's
 * validation tasks, per suite (`replaySampleSwitches`): the evidence `samplesMayReplace` weighs.
 */
export const SampleSwitchingSchema = z
  .strictObject({
    /** The `--template-margin` the replay used: the record holds for that margin only. */
    margin: z.number().min(0).finite(),
    suites: z
      .array(
        z.strictObject({
          suite: z.string().max(MAX_NAME_LENGTH),
          /** Validation tasks where the router's pick and at least one sampled plan ran, graded. */
          tasks: z.number().int().min(1),
          /** Of those, tasks where a sample replaced the router's pick. */
          switches: z.number().int().min(0),
          /** Switches where the sample was right and the router's pick wrong. */
          wins: z.number().int().min(0),
          /** Switches where the sample was wrong and the router's pick right. */
          losses: z.number().int().min(0),
        }),
      )
      .max(MAX_ROUTER_FACTS),
  })
  .superRefine((data, context) => {
    for (const entry of data.suites) {
      if (entry.switches > entry.tasks || entry.wins + entry.losses > entry.switches) context.addIssue({ code: 'custom', message: `suite ${entry.suite} has ${entry.wins} wins and ${entry.losses} losses of ${entry.switches} switches on ${entry.tasks} tasks` });
    }
    if (new Set(data.suites.map((entry) => entry.suite)).size !== data.suites.length) context.addIssue({ code: 'custom', message: 'a template router lists each suite of its sample switching once' });
  });
export type SampleSwitching = z.infer<typeof SampleSwitchingSchema>;

/**
 * Whether switches to a sampled plan paid on a suite's validation tasks: their wins exceed their
 * losses by more than one standard deviation of that difference were each switch a coin flip
 * (wins - losses > sqrt(wins + losses)). No switch, or none that won or lost, is no evidence.
 */
export function switchesPaid(entry: { wins: number; losses: number }): boolean {
  return entry.wins - entry.losses > Math.sqrt(entry.wins + entry.losses);
}

/**
 * The router's accuracy pick among its probabilities (`TemplateRouter.probabilities`): the position
 * of the highest, the first on a tie, as bon takes it; undefined when it rates some template not at all.
 */
export function routerAccuracyPick(probabilities: readonly (number | undefined)[]): number | undefined {
  if (probabilities.length === 0 || probabilities.some((value) => value === undefined)) return undefined;
  return probabilities.reduce<number>((best, value, index) => (value! > probabilities[best]! ? index : best), 0);
}

/** A template router as a model file stores it (metadata `template_router`, JSON). */
export const TemplateRouterDataSchema = z
  .strictObject({
    version: z.literal(1),
    l2: z.number().positive().finite(),
    facts: z.array(z.string().min(1).max(MAX_NAME_LENGTH + 200)).max(MAX_ROUTER_FACTS),
    templates: z
      .array(z.strictObject({ name: z.string().min(1).max(MAX_NAME_LENGTH), weights: z.array(z.number().finite()).max(MAX_ROUTER_FACTS) }))
      .min(2)
      .max(MAX_ROUTER_TEMPLATES),
    popularity: PopularityTableSchema,
    /**
     * Per relation that governs a task's best-known name ("the mayor of X"), the mean mentions of
     * the names it governs in the training texts (`relationMeans`): the router reads a name's
     * popularity for its kind against it (`relativePopularityBucket`). Absent from routers written
     * before it, which read the plain popularity bucket only.
     */
    relations: z
      .array(z.strictObject({ relation: z.string().min(1).max(MAX_POPULARITY_NAME_LENGTH), meanMentions: z.number().min(0).finite() }))
      .max(MAX_ROUTER_FACTS)
      .optional(),
    /**
     * Graded template episodes it was fitted on (train and validation), per suite and template:
     * what a sceptic who ran every template on the same tasks would choose a fixed plan per family
     * from (`bestTemplatesBySuite`). Absent from routers written before it.
     */
    record: z
      .array(
        z.strictObject({
          suite: z.string().max(MAX_NAME_LENGTH),
          template: z.string().min(1).max(MAX_NAME_LENGTH),
          episodes: z.number().int().min(1),
          correct: z.number().int().min(0),
          /** Execution tokens of those episodes, summed: what the template costs on the suite (`meanExecutionTokens`). Absent from routers written before it. */
          executionTokens: z.number().int().min(0).optional(),
        }),
      )
      .max(MAX_ROUTER_FACTS)
      .optional(),
    /**
     * Per template, a ridge fit of its episodes' execution tokens over the task's cost facts
     * (`costFacts`): what the router prices the template at on a task (`executionTokens`). Absent
     * from routers written before it, which price a template by its record's mean on the suite.
     */
    costs: z
      .strictObject({
        facts: z.array(z.string().min(1).max(MAX_NAME_LENGTH + 200)).max(MAX_COST_FACTS),
        templates: z.array(z.strictObject({ name: z.string().min(1).max(MAX_NAME_LENGTH), weights: z.array(z.number().finite()).max(MAX_COST_FACTS) })).max(MAX_ROUTER_TEMPLATES),
      })
      .optional(),
    /**
     * What reading the sampled plans is expected to add to the router's priced pick, per suite, on a
     * log grid of prices per token (`estimateReadingGain`): `rm+templates` skips reading where it
     * costs more (docs/select.md, "The value of reading"). Absent from routers written before it, and
     * where no collection task had both template plans and samples.
     */
    readingGain: ReadingGainSchema.optional(),
    /**
     * How `rm+templates`' switches to a sampled plan fared on the collection's validation tasks
     * (`replaySampleSwitches`): it lets a sample replace the router's pick only on a suite where
     * they paid (`samplesMayReplace`). Absent from routers written before it.
     */
    sampleSwitching: SampleSwitchingSchema.optional(),
  })
  .superRefine((data, context) => {
    if (new Set(data.facts).size !== data.facts.length) context.addIssue({ code: 'custom', message: 'a template router lists each fact once' });
    if (new Set(data.templates.map((template) => template.name)).size !== data.templates.length) context.addIssue({ code: 'custom', message: 'a template router lists each template once' });
    for (const template of data.templates) {
      if (template.weights.length !== data.facts.length) context.addIssue({ code: 'custom', message: `template ${template.name} has ${template.weights.length} weights for ${data.facts.length} facts` });
    }
    if (data.costs !== undefined) {
      if (new Set(data.costs.facts).size !== data.costs.facts.length) context.addIssue({ code: 'custom', message: 'a template router lists each cost fact once' });
      if (new Set(data.costs.templates.map((template) => template.name)).size !== data.costs.templates.length) context.addIssue({ code: 'custom', message: 'a template router prices each template once' });
      for (const template of data.costs.templates) {
        if (template.weights.length !== data.costs.facts.length) context.addIssue({ code: 'custom', message: `template ${template.name} has ${template.weights.length} cost weights for ${data.costs.facts.length} cost facts` });
      }
    }
    if (data.relations !== undefined && new Set(data.relations.map((entry) => entry.relation)).size !== data.relations.length) context.addIssue({ code: 'custom', message: 'a template router lists each relation once' });
    if (data.readingGain !== undefined) {
      const { prices, suites } = data.readingGain;
      if (prices.some((price, index) => index > 0 && price <= prices[index - 1]!)) context.addIssue({ code: 'custom', message: 'reading gain prices must increase' });
      for (const entry of suites) {
        if (entry.gains.length !== prices.length) context.addIssue({ code: 'custom', message: `suite ${entry.suite} has ${entry.gains.length} reading gains for ${prices.length} prices` });
      }
      if (new Set(suites.map((entry) => entry.suite)).size !== suites.length) context.addIssue({ code: 'custom', message: 'a template router lists each suite of its reading gain once' });
    }
    for (const entry of data.record ?? []) {
      if (entry.correct > entry.episodes) context.addIssue({ code: 'custom', message: `template ${entry.template} on suite ${entry.suite} has ${entry.correct} correct of ${entry.episodes} episodes` });
    }
  });
export type TemplateRouterData = z.infer<typeof TemplateRouterDataSchema>;

/** How the router fitted: examples per split, the L2 kept and the validation log loss of each candidate. */
export interface TemplateRouterReport {
  templates: number;
  facts: number;
  trainEpisodes: number;
  validationEpisodes: number;
  l2: number;
  /** Per L2 candidate, mean log loss on the validation split's template episodes; empty without them. */
  validationLoss: { l2: number; loss: number }[];
  /** What reading the samples is expected to add, as stored with the router (`estimateReadingGain`); absent without it. */
  readingGain?: ReadingGain;
  /** How switches to a sampled plan fared on the validation tasks, as stored with the router (`replaySampleSwitches`); absent without it. */
  sampleSwitching?: SampleSwitching;
}

/**
 * What the router reads of a task: its suite, and, within the suite, the word problem's structure
 * facts (`routeFacts`: a critic, a decomposition or independent samples), how popular its
 * best-known name is (`popularityBucket` over the router's own table) and, with `means`, how
 * popular for its kind (`relativePopularityBucket`: a city named in four training tasks is an
 * ordinary city, a person named in four a famous one). The structure and popularity facts are those
 * the `route` and `popularity` encoders cross at full weight; the suite keeps one benchmark's
 * statistics from another's (best-fixed-per-family reads the suite too).
 */
export function routerFacts(question: string, suite: string, popularity: ReadonlyMap<string, number>, means?: ReadonlyMap<string, number>): string[] {
  const facts = routeFacts(analyzeTask(question, TASK_SHAPE_VERSION));
  const names = taskNames(question);
  const bucket = popularityBucket(names, popularity);
  if (bucket !== undefined) facts.push(bucket);
  const relative = means === undefined ? undefined : relativePopularityBucket(question, names, popularity, means);
  if (relative !== undefined) facts.push(relative);
  return [`${SUITE_FACT}${suite}`, ...facts.map((fact) => `${suite}:${fact}`)];
}

/**
 * What the router prices a template over: its routing facts (`routerFacts`) and how big the task
 * is (`SIZE_FACT`: a depth-6 word problem costs a reflexion loop five times a depth-2 one), within
 * the suite. A template's cost is a linear function of these (`TemplateRouterData.costs`).
 */
function costFacts(question: string, suite: string, popularity: ReadonlyMap<string, number>, means: ReadonlyMap<string, number> | undefined): string[] {
  const size = analyzeTask(question, TASK_SHAPE_VERSION).shapeNames.filter((fact) => SIZE_FACT.test(fact));
  return [...routerFacts(question, suite, popularity, means), ...size.map((fact) => `${suite}:size:${fact}`)];
}

/**
 * A template router (issue 21, fourth round): for each template plan the collection executed,
 * a logistic model of its success over the task's routing facts (`routerFacts`), fitted on the
 * graded template episodes of the train and validation splits. Template episodes run every template on the same
 * tasks, so their outcomes say directly which template works on which kind of task; the
 * Bradley-Terry head learns the same from pairs dominated by sampled plans, where a few hundred
 * template tasks move it little (docs/rm.md, "The template router").
 */
export class TemplateRouter {
  private readonly factIndex: Map<string, number>;
  private readonly weights: Map<string, readonly number[]>;
  private readonly popularity: Map<string, number>;
  /** Undefined for a router written before `relations`: it reads the plain popularity bucket only. */
  private readonly relationMeans: Map<string, number> | undefined;
  private readonly costFactIndex: Map<string, number>;
  private readonly costWeights: Map<string, readonly number[]>;

  constructor(readonly data: TemplateRouterData) {
    this.factIndex = new Map(data.facts.map((fact, index) => [fact, index]));
    this.weights = new Map(data.templates.map((template) => [template.name, template.weights]));
    this.popularity = popularityCounts(data.popularity);
    this.relationMeans = data.relations === undefined ? undefined : new Map(data.relations.map((entry) => [entry.relation, entry.meanMentions]));
    this.costFactIndex = new Map((data.costs?.facts ?? []).map((fact, index) => [fact, index]));
    this.costWeights = new Map((data.costs?.templates ?? []).map((template) => [template.name, template.weights]));
  }

  /** The templates it has learnt, in the order it stores them. */
  get names(): string[] {
    return this.data.templates.map((template) => template.name);
  }

  /** The suites whose template outcomes it was fitted on. */
  get suites(): string[] {
    return this.data.facts.filter((fact) => fact.startsWith(SUITE_FACT)).map((fact) => fact.slice(SUITE_FACT.length));
  }

  /**
   * Per suite it has a record of, the template among `names` with the highest success rate in the
   * graded template episodes it was fitted on, the first of `names` on a tie: the best fixed plan
   * per family as the training data says, which a user can deploy without seeing a test grade
   * (bon's `train-best-fixed-per-family`). Undefined for a router without a record.
   */
  bestTemplatesBySuite(names: readonly string[]): Record<string, string> | undefined {
    if (this.data.record === undefined) return undefined;
    const best = new Map<string, { template: string; rate: number }>();
    for (const name of names) {
      for (const entry of this.data.record) {
        if (entry.template !== name) continue;
        const rate = entry.correct / entry.episodes;
        const current = best.get(entry.suite);
        if (current === undefined || rate > current.rate) best.set(entry.suite, { template: name, rate });
      }
    }
    return Object.fromEntries([...best].map(([suite, { template }]) => [suite, template]));
  }

  /**
   * Per name, the mean execution tokens of the template's episodes on the suite that the router
   * was fitted on: what the router prices a template at under a cost objective (it reads no plan,
   * so it has no per-task cost). Undefined for a template without such a record, and for every
   * template of a router written before records carried tokens.
   */
  meanExecutionTokens(suite: string, names: readonly string[]): (number | undefined)[] {
    return names.map((name) => {
      const entry = this.data.record?.find((candidate) => candidate.suite === suite && candidate.template === name);
      return entry?.executionTokens === undefined ? undefined : entry.executionTokens / entry.episodes;
    });
  }

  /**
   * Per name, the execution tokens the router expects the template to spend on the task: its ridge
   * fit over the task's cost facts (`costFacts`), never below 0, for a template the router prices;
   * otherwise, and for every template of a router written before it priced per task, its record's
   * mean on the suite (`meanExecutionTokens`). Undefined, like the probabilities, on a suite the
   * router has seen no task of.
   */
  executionTokens(question: string, suite: string, names: readonly string[]): (number | undefined)[] {
    if (!this.factIndex.has(`${SUITE_FACT}${suite}`)) return names.map(() => undefined);
    const means = this.meanExecutionTokens(suite, names);
    if (this.costWeights.size === 0) return means;
    const indices = costFacts(question, suite, this.popularity, this.relationMeans).flatMap((fact) => {
      const index = this.costFactIndex.get(fact);
      return index === undefined ? [] : [index];
    });
    return names.map((name, position) => {
      const weights = this.costWeights.get(name);
      return weights === undefined ? means[position] : Math.max(0, logit(weights, indices));
    });
  }

  /**
   * The gain that reading the sampled plans is expected to add to the router's priced pick on a
   * task of the suite at this price per token (`TemplateRouterData.readingGain`), linear in log
   * price between its grid's points and flat beyond them. Undefined without an estimate for the
   * suite, or when it was made for another template margin than `margin`.
   */
  readingGain(suite: string, pricePerToken: number, margin: number): number | undefined {
    const table = this.data.readingGain;
    const gains = table?.suites.find((entry) => entry.suite === suite)?.gains;
    if (table === undefined || gains === undefined || table.margin !== margin) return undefined;
    const { prices } = table;
    if (pricePerToken <= prices[0]!) return gains[0];
    const above = prices.findIndex((price) => price >= pricePerToken);
    if (above === -1) return gains[gains.length - 1];
    const [low, high] = [Math.log(prices[above - 1]!), Math.log(prices[above]!)];
    const weight = (Math.log(pricePerToken) - low) / (high - low);
    return gains[above - 1]! + weight * (gains[above]! - gains[above - 1]!);
  }

  /** The same router with a reading-gain estimate (`estimateReadingGain`). */
  withReadingGain(readingGain: ReadingGain): TemplateRouter {
    return new TemplateRouter({ ...this.data, readingGain });
  }

  /**
   * Whether `rm+templates` may let a sampled plan replace the router's pick on a task of the suite
   * at this template margin: only where its switches paid on the collection's validation tasks
   * (`switchesPaid`); false for a suite without such tasks. Undefined for a router written before
   * the record, or when the record was made for another margin: samples may then replace it as before.
   */
  samplesMayReplace(suite: string, margin: number): boolean | undefined {
    const record = this.data.sampleSwitching;
    if (record === undefined || record.margin !== margin) return undefined;
    const entry = record.suites.find((candidate) => candidate.suite === suite);
    return entry !== undefined && switchesPaid(entry);
  }

  /** The same router with the validation record of sample switches (`replaySampleSwitches`). */
  withSampleSwitching(sampleSwitching: SampleSwitching): TemplateRouter {
    return new TemplateRouter({ ...this.data, sampleSwitching });
  }

  /**
   * Per name, the predicted probability that the template succeeds on the task; undefined for a
   * template it has not learnt, and for every template when it has seen no task of the suite (it
   * would otherwise rate them all alike and the first would win).
   */
  probabilities(question: string, suite: string, names: readonly string[]): (number | undefined)[] {
    if (!this.factIndex.has(`${SUITE_FACT}${suite}`)) return names.map(() => undefined);
    const indices = routerFacts(question, suite, this.popularity, this.relationMeans).flatMap((fact) => {
      const index = this.factIndex.get(fact);
      return index === undefined ? [] : [index];
    });
    return names.map((name) => {
      const weights = this.weights.get(name);
      return weights === undefined ? undefined : sigmoid(logit(weights, indices));
    });
  }
}

interface Example {
  facts: number[];
  correct: boolean;
}

/**
 * Fits a template router on the graded template episodes among `outcomes` (`PlanOutcome.template`
 * set, `correct` known): fitted on the train split, each L2 strength of `ROUTER_L2_CANDIDATES` is
 * judged by log loss on the validation split, and the one kept is refitted on both; the test split
 * is never read. Undefined when fewer than two templates have `MIN_ROUTER_EPISODES` graded train
 * episodes (a label-free dataset has none). Deterministic: full-batch gradient descent from zero
 * weights.
 */
export function trainTemplateRouter(outcomes: readonly PlanOutcome[], taskTexts: readonly { question: string; split: PairSplit }[] = []): { router: TemplateRouter; report: TemplateRouterReport } | undefined {
  const graded = (split: PairSplit) => outcomes.filter((outcome) => outcome.split === split && outcome.template !== undefined && outcome.correct !== undefined);
  const train = graded('train');
  const perTemplate = new Map<string, number>();
  for (const outcome of train) perTemplate.set(outcome.template!, (perTemplate.get(outcome.template!) ?? 0) + 1);
  const names = [...perTemplate].filter(([name, count]) => count >= MIN_ROUTER_EPISODES && name.length <= MAX_NAME_LENGTH).map(([name]) => name);
  if (names.length < 2) return undefined;
  const known = new Set(names.slice(0, MAX_ROUTER_TEMPLATES));
  // Popularity reads every task text outside the test split (no grade), not only the tasks templates
  // ran on: the outcomes' and `taskTexts`, those of tasks the collection was given and did not run.
  const texts = [...outcomes, ...taskTexts].filter((entry) => entry.split !== 'test').map((entry) => entry.question);
  const popularity = fitPopularity(texts);
  const counts = popularityCounts(popularity);
  // Rounded as the file stores them, so that a loaded router reads every task as the fitted one did.
  const means = new Map([...relationMeans(texts, counts, MAX_ROUTER_FACTS)].map(([relation, mean]) => [relation, Number(mean.toPrecision(6))]));
  const factIndex = new Map<string, number>();
  // Every template ran on the same tasks: read each task once.
  const factsOf = new Map<string, string[]>();
  const encode = (outcome: PlanOutcome): number[] => {
    const key = `${outcome.suite ?? ''}\u0000${outcome.question}`;
    let facts = factsOf.get(key);
    if (facts === undefined) factsOf.set(key, (facts = routerFacts(outcome.question, outcome.suite ?? '', counts, means)));
    return facts.flatMap((fact) => {
      let index = factIndex.get(fact);
      if (index === undefined && factIndex.size < MAX_ROUTER_FACTS) factIndex.set(fact, (index = factIndex.size));
      return index === undefined ? [] : [index];
    });
  };
  const byTemplate = (list: readonly PlanOutcome[]) => {
    const examples = new Map<string, Example[]>();
    for (const outcome of list) {
      if (!known.has(outcome.template!)) continue;
      const entry = examples.get(outcome.template!) ?? [];
      entry.push({ facts: encode(outcome), correct: outcome.correct! });
      examples.set(outcome.template!, entry);
    }
    return examples;
  };
  const trainExamples = byTemplate(train);
  const validation = graded('validation');
  const validationExamples = byTemplate(validation);
  const count = (examples: Map<string, Example[]>) => [...examples.values()].reduce((sum, list) => sum + list.length, 0);
  const fitAll = (examples: Map<string, Example[]>, l2: number) => new Map([...examples].map(([name, list]) => [name, fitLogistic(list, factIndex.size, l2)]));
  const validationLoss: { l2: number; loss: number }[] = [];
  let l2 = 1;
  if (count(validationExamples) > 0) {
    let bestLoss = Infinity;
    for (const candidate of ROUTER_L2_CANDIDATES) {
      const weights = fitAll(trainExamples, candidate);
      let total = 0;
      // A template without train examples here has none in validation either (both come from the known templates).
      for (const [name, examples] of validationExamples) for (const example of examples) total += logLoss(weights.get(name) ?? new Float64Array(factIndex.size), example);
      const loss = total / count(validationExamples);
      validationLoss.push({ l2: candidate, loss });
      if (loss < bestLoss) [bestLoss, l2] = [loss, candidate];
    }
  }
  const both = new Map([...trainExamples].map(([name, list]) => [name, [...list, ...(validationExamples.get(name) ?? [])]]));
  const weights = fitAll(both, l2);
  const record = new Map<string, { suite: string; template: string; episodes: number; correct: number; executionTokens: number }>();
  for (const outcome of [...train, ...validation]) {
    if (!known.has(outcome.template!)) continue;
    const suite = outcome.suite ?? '';
    const key = `${suite}\u0000${outcome.template}`;
    const entry = record.get(key) ?? { suite, template: outcome.template!, episodes: 0, correct: 0, executionTokens: 0 };
    entry.episodes += 1;
    entry.executionTokens += Math.round(outcome.executionTokens);
    if (outcome.correct) entry.correct += 1;
    record.set(key, entry);
  }
  const costs = fitCosts([...train, ...validation].filter((outcome) => known.has(outcome.template!)), counts, means);
  const data: TemplateRouterData = {
    version: 1,
    l2,
    facts: [...factIndex.keys()],
    templates: [...weights].map(([name, values]) => ({ name, weights: Array.from(values) })),
    popularity: popularity satisfies PopularityTable,
    relations: [...means].map(([relation, meanMentions]) => ({ relation, meanMentions })),
    // A record too long for the schema (thousands of suites) is left out rather than cut: a partial one would choose from some suites' data only.
    ...(record.size <= MAX_ROUTER_FACTS && { record: [...record.values()] }),
    costs,
  };
  return {
    router: new TemplateRouter(data),
    report: { templates: data.templates.length, facts: data.facts.length, trainEpisodes: count(trainExamples), validationEpisodes: count(validationExamples), l2, validationLoss },
  };
}

/**
 * Per template, a ridge regression of its episodes' execution tokens on the binary cost facts
 * (`costFacts`; the suite fact is each suite's intercept), solved exactly from the normal equations
 * (`COST_L2` pseudo-episodes of L2). Facts past `MAX_COST_FACTS` are left out.
 */
function fitCosts(outcomes: readonly PlanOutcome[], popularity: ReadonlyMap<string, number>, means: ReadonlyMap<string, number>): NonNullable<TemplateRouterData['costs']> {
  const factIndex = new Map<string, number>();
  const factsOf = new Map<string, number[]>();
  const encode = (outcome: PlanOutcome): number[] => {
    const key = `${outcome.suite ?? ''}\u0000${outcome.question}`;
    let indices = factsOf.get(key);
    if (indices === undefined) {
      indices = costFacts(outcome.question, outcome.suite ?? '', popularity, means).flatMap((fact) => {
        let index = factIndex.get(fact);
        if (index === undefined && factIndex.size < MAX_COST_FACTS) factIndex.set(fact, (index = factIndex.size));
        return index === undefined ? [] : [index];
      });
      factsOf.set(key, indices);
    }
    return indices;
  };
  const byTemplate = new Map<string, { facts: number[]; tokens: number }[]>();
  for (const outcome of outcomes) {
    const list = byTemplate.get(outcome.template!) ?? [];
    list.push({ facts: encode(outcome), tokens: outcome.executionTokens });
    byTemplate.set(outcome.template!, list);
  }
  const dimension = factIndex.size;
  const templates = [...byTemplate].map(([name, episodes]) => {
    const gram = Array.from({ length: dimension }, (_, row) => Array.from({ length: dimension }, (_, column) => (row === column ? COST_L2 : 0)));
    const moment = new Array<number>(dimension).fill(0);
    for (const { facts, tokens } of episodes) {
      for (const row of facts) {
        for (const column of facts) gram[row]![column]! += 1;
        moment[row]! += tokens;
      }
    }
    const solution = mathjs().lusolve(gram, moment) as number[][];
    return { name, weights: solution.map((row) => row[0]!) };
  });
  return { facts: [...factIndex.keys()], templates };
}

/** Logistic regression over binary facts: mean log loss plus l2/2 |w|^2 per example count, by full-batch gradient descent. */
function fitLogistic(examples: readonly Example[], dimension: number, l2: number): Float64Array {
  const weights = new Float64Array(dimension);
  const gradient = new Float64Array(dimension);
  const count = examples.length;
  for (let step = 0; step < STEPS; step++) {
    gradient.fill(0);
    for (const example of examples) {
      const residual = sigmoid(logit(weights, example.facts)) - (example.correct ? 1 : 0);
      for (const index of example.facts) gradient[index] = gradient[index]! + residual;
    }
    for (let index = 0; index < dimension; index++) weights[index] = weights[index]! - (STEP_SIZE * (gradient[index]! + l2 * weights[index]!)) / count;
  }
  return weights;
}

function logLoss(weights: ArrayLike<number>, example: Example): number {
  const probability = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(logit(weights, example.facts))));
  return -Math.log(example.correct ? probability : 1 - probability);
}

function logit(weights: ArrayLike<number>, facts: readonly number[]): number {
  let sum = 0;
  for (const index of facts) sum += weights[index]!;
  return sum;
}
