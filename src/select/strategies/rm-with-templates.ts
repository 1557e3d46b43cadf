import type { PlanEstimate, Usage } from '../../core/index.js';
import { headDifference } from '../../rm/index.js';
import { chooseByObjective } from '../selection-objective.js';
import type { Selection, SelectionContext, SelectionStrategy } from '../selection-strategy.js';
import { isCorrect, rankCandidates } from '../vote-executed.js';
import { sampledIndices, scoreVerification } from './score-verification.js';

/** The template with the highest score, the first in library order on a tie; undefined without templates. */
export function bestTemplate(scores: readonly number[], context: SelectionContext): number | undefined {
  return rankCandidates(
    scores,
    context.templates.map((template) => template.index),
  )[0];
}

/**
 * The template a strategy settles on. With a template router (`SelectionContext.templateRoutes`),
 * the one it rates most likely to succeed on the task (the first in library order on a tie).
 * Otherwise the best-scored one, except that with a reference template
 * (`SelectionContext.referenceTemplate`) another template replaces the reference only when it
 * scores higher by more than `templateMargin` standard deviations of the score difference over the
 * model's bootstrap heads (strictly higher without heads). A model trained on a few hundred tasks
 * ranks templates inside a family with much noise; the reference is what it would pick without
 * reading the task, and a switch away from it must be one the heads agree on.
 */
export async function routedTemplate(scores: readonly number[], context: SelectionContext): Promise<number | undefined> {
  const routes = context.templateRoutes();
  if (routes !== undefined) return context.templates[rankCandidates(routes, routes.map((_, position) => position))[0]!]?.index;
  const best = bestTemplate(scores, context);
  const reference = context.referenceTemplate;
  if (best === undefined || reference === undefined || best === reference) return best;
  const members = await context.memberScores();
  const spread = members === undefined ? 0 : headDifference(members[best] ?? [], members[reference] ?? []).spread;
  return scores[best]! - scores[reference]! > context.templateMargin * spread ? best : reference;
}

/** What the template router says of every template of the pool, without reading a plan. */
interface RouterEstimates {
  /** By pool index: the router's success probability and expected execution tokens of each template. */
  estimates: PlanEstimate[];
  /** The templates' pool indices by the router's probability, its accuracy pick first. */
  ranked: number[];
}

/**
 * With a template router whose record prices every template (`templateRouteCosts`): its estimate
 * of each template (success probability, expected execution tokens on the task) by pool index, and the
 * templates by its probability (the accuracy pick first, so it wins every tie of an objective).
 * Undefined otherwise.
 */
function routerEstimates(context: SelectionContext): RouterEstimates | undefined {
  const routes = context.templateRoutes();
  const costs = context.templateRouteCosts();
  if (routes === undefined || costs === undefined) return undefined;
  const estimates: PlanEstimate[] = [];
  context.templates.forEach((template, position) => (estimates[template.index] = { successProbability: routes[position]!, executionTokens: costs[position]! }));
  const ranked = rankCandidates(
    routes,
    routes.map((_, position) => position),
  ).map((position) => context.templates[position]!.index);
  return { estimates, ranked };
}

/** What reading the task alone costs: the template router's verification. */
function questionOnly(context: SelectionContext): Usage {
  return { promptTokens: context.questionTokens, completionTokens: 0, totalTokens: context.questionTokens };
}

/**
 * Under a price, the template the router alone picks when reading the candidates is not worth
 * its tokens: when reading `candidates` costs more, at the price, than the model expects it to add
 * to the router's priced pick on a task of the suite (`SelectionContext.readingGain`, estimated on
 * its training tasks). Without that estimate the bound is what a plan certain to succeed at no
 * execution cost would add (1 less the value of the router's pick), which no outcome of reading
 * can beat. Undefined when reading may pay, or under another objective.
 */
function pickWithoutScoring(context: SelectionContext, router: RouterEstimates, candidates: readonly number[]): number | undefined {
  const { objective } = context;
  if (objective.kind !== 'price') return undefined;
  const chosen = chooseByObjective(router.ranked, router.estimates, objective);
  const { successProbability, executionTokens } = router.estimates[chosen]!;
  const readingCost = objective.pricePerToken * (scoreVerification(context, candidates).totalTokens - context.questionTokens);
  const expectedGain = context.readingGain(objective.pricePerToken) ?? 1 - (successProbability - objective.pricePerToken * executionTokens);
  return readingCost > expectedGain ? chosen : undefined;
}

/**
 * The samples that score above the `bar` candidate by more than `templateMargin` standard
 * deviations of the score difference over the model's bootstrap heads (strictly above without
 * heads), each with that spread (undefined without heads), and the one with the widest such lead
 * (the earliest on a tie; undefined when none passes).
 */
function samplesPassing(context: SelectionContext, scores: readonly number[], members: readonly (readonly number[])[] | undefined, bar: number): { passing: Map<number, number | undefined>; best: number | undefined } {
  const passing = new Map<number, number | undefined>();
  let best: number | undefined;
  let bestLowerBound = 0;
  for (const sample of sampledIndices(context.n)) {
    const spread = members === undefined ? 0 : headDifference(members[sample] ?? [], members[bar] ?? []).spread;
    const lowerBound = (scores[sample] ?? Number.NEGATIVE_INFINITY) - scores[bar]! - context.templateMargin * spread;
    if (lowerBound <= 0) continue;
    passing.set(sample, members === undefined ? undefined : spread);
    if (lowerBound > bestLowerBound) [best, bestLowerBound] = [sample, lowerBound];
  }
  return { passing, best };
}

/** Runs the chosen candidate: the selection of a strategy that read `read` and wrote N samples, with the chosen sample's spread when it passed a bar. */
async function runChosen(context: SelectionContext, chosen: number, read: readonly number[], passing: ReadonlyMap<number, number | undefined>): Promise<Selection> {
  const uncertainty = passing.get(chosen);
  const episode = await context.execute(chosen);
  return {
    correct: isCorrect(episode),
    chosen,
    executed: [chosen],
    plansWritten: context.n,
    usedTemplates: true,
    verification: scoreVerification(context, read),
    ...(uncertainty !== undefined && { uncertainty }),
  };
}

/**
 * Under a cost objective, with a template router that prices the templates (`routerEstimates`):
 * what `rm+templates` reads and picks. The router's own estimate (success probability, execution
 * tokens on the task) stands for every template, so the only template read is its accuracy pick,
 * the bar a sample must beat by `templateMargin` standard deviations of the heads' score
 * difference; the samples that do are weighed by the model's estimates (calibrated score, cost
 * head). Reading the other templates could only replace the router's estimates with the cost
 * head's, which prices a template from its text, not from its record on tasks of this kind.
 */
async function selectPricedByRouter(context: SelectionContext, router: RouterEstimates): Promise<Selection> {
  const bar = router.ranked[0]!;
  const read = [...sampledIndices(context.n), bar];
  const unscored = pickWithoutScoring(context, router, read);
  if (unscored !== undefined) {
    const episode = await context.execute(unscored);
    return { correct: isCorrect(episode), chosen: unscored, executed: [unscored], plansWritten: context.n, usedTemplates: true, verification: questionOnly(context) };
  }
  const [scores, members, modelEstimates] = await Promise.all([context.scores(), context.memberScores(), context.estimates()]);
  const { passing, best } = samplesPassing(context, scores, members, bar);
  const estimates = [...router.estimates];
  for (const sample of passing.keys()) estimates[sample] = modelEstimates[sample]!;
  const chosen = chooseByObjective([...new Set([best ?? bar, ...router.ranked, ...passing.keys()])], estimates, context.objective);
  return runChosen(context, chosen, read, passing);
}

/**
 * `rm+templates`: the reward model as a router over the N sampled plans and the template pool (a
 * small library of plans whose outcome statistics the model has seen in training). It takes the
 * template `routedTemplate` settles on (the template router's pick, or the best-scored template
 * against the suite's reference), and a sampled plan instead only when the sample scores higher
 * than the best-scored template by more than `templateMargin` standard deviations of the score
 * difference over the model's bootstrap heads: a sample the model knows little about has a wide
 * spread and must win by more. Without heads a sample must score strictly higher. So ties (a
 * sample of a template's shape scores the same as the template) go to the template, and among
 * samples to the earliest. Under a cost objective with a router that prices the templates it reads
 * only the samples and the router's pick (`selectPricedByRouter`), and under a price it first asks
 * whether that reading is worth its tokens (`pickWithoutScoring`); when it is not, it takes the
 * router's priced pick and reads only the task. Where the model's record says switches to a sample
 * did not pay on the suite's validation tasks (`SelectionContext.samplesMayReplace`), it is the
 * router alone, under every objective: it neither writes nor reads samples (`rm-templates-only`).
 */
export const rmWithTemplatesStrategy: SelectionStrategy = {
  name: 'rm+templates',
  async select(context) {
    if (!context.samplesMayReplace()) return rmTemplatesOnlyStrategy.select(context);
    if (context.objective.kind !== 'accuracy') {
      const router = routerEstimates(context);
      if (router !== undefined) return selectPricedByRouter(context, router);
    }
    const samples = sampledIndices(context.n);
    const candidates = [...samples, ...context.templates.map((template) => template.index)];
    const scores = await context.scores();
    const template = await routedTemplate(scores, context);
    // A router's pick is not the model's best-scored template: a sample must then beat the best-scored one, so that scores compare with scores.
    const bar = context.templateRoutes() === undefined ? template : bestTemplate(scores, context);
    if (template === undefined || bar === undefined) return runChosen(context, rankCandidates(scores, samples)[0] ?? 0, candidates, new Map());
    // Ties with the template keep it; among samples the earliest wins.
    const { passing, best } = samplesPassing(context, scores, await context.memberScores(), bar);
    let chosen = best ?? template;
    // A cost objective (without a router that prices the templates) chooses among every template and the samples that passed the margin, by the model's estimates, the accuracy pick first.
    if (context.objective.kind !== 'accuracy') {
      const templates = rankCandidates(
        scores,
        context.templates.map((entry) => entry.index),
      );
      chosen = chooseByObjective([...new Set([chosen, ...templates, ...passing.keys()])], await context.estimates(), context.objective);
    }
    return runChosen(context, chosen, candidates, passing);
  },
};

/**
 * `rm-templates-only`: the reward model as a router among the template plans alone (no sampled
 * plan is written): it executes the template `routedTemplate` settles on, the first in library
 * order on a tie. Against the family's best fixed template it shows whether the model's choice of
 * plan depends on the task, and whether that choice wins. With a template router it reads the
 * task once and no plan, so only the task's tokens are verification; under a cost objective it
 * then weighs the router's probabilities against the execution tokens it expects each template to
 * spend on the task (`templateRouteCosts`). Without a router (or a record without
 * tokens) every template is scored and read, and a cost objective uses the model's estimates.
 */
export const rmTemplatesOnlyStrategy: SelectionStrategy = {
  name: 'rm-templates-only',
  async select(context) {
    const templates = context.templates.map((template) => template.index);
    const router = routerEstimates(context);
    const routedOnly = context.templateRoutes() !== undefined && (context.objective.kind === 'accuracy' || router !== undefined);
    const scores = routedOnly ? [] : await context.scores();
    const best = (await routedTemplate(scores, context)) ?? 0;
    let chosen = best;
    if (context.objective.kind !== 'accuracy' && templates.length > 0) {
      chosen = router !== undefined ? chooseByObjective(router.ranked, router.estimates, context.objective) : chooseByObjective(rankCandidates(scores, templates), await context.estimates(), context.objective);
    }
    const episode = await context.execute(chosen);
    const verification = routedOnly ? questionOnly(context) : scoreVerification(context, templates);
    return { correct: isCorrect(episode), chosen, executed: [chosen], plansWritten: 0, usedTemplates: true, verification };
  },
};
