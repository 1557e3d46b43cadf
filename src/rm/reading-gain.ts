import type { PlanOutcome } from './cost-head.js';
import { headDifference } from './bootstrap-heads.js';
import { routerAccuracyPick, type ReadingGain, type TemplateRouter } from './template-router.js';
import type { TrainedRewardModel } from './trained-reward-model.js';

/**
 * Standard deviations of the bootstrap heads' score difference by which `rm+templates` makes a
 * sampled plan beat a template (bon's `--template-margin` default), and the margin the reading gain
 * is estimated at.
 */
export const DEFAULT_TEMPLATE_MARGIN = 1;

/** Prices per token the reading gain is estimated at: four per decade from 1e-8 to 1e-3. */
export const READING_GAIN_PRICES: readonly number[] = Array.from({ length: 21 }, (_, index) => Number((10 ** (-8 + index / 4)).toPrecision(3)));

/**
 * What reading the sampled plans is expected to add, per suite and price, to the template router's
 * priced pick (issue 22: spend compute where the task needs it). On every train or validation task
 * of the collection where the router's accuracy pick ran as a template and the policy's plans were
 * sampled, it replays what `rm+templates` does under a price: the samples that score above the
 * router's pick by `margin` standard deviations of the heads' score difference (strictly above
 * without heads) may replace it, and the value of a pick is its success probability less the price
 * times its execution tokens (the router's estimates for the templates, the model's calibrated
 * score and cost head for the samples). The gain on a task is the best passing sample's value over
 * the router's best priced template, or 0; the estimate is its mean over the suite's tasks.
 *
 * It reads no grade: the values are the model's own expectations, the ones `rm+templates` chooses
 * by. On tasks the model was trained on its scores separate plans better than on new ones, so the
 * estimate leans high, and `rm+templates` reads more often than it would with the true gain.
 * Undefined when the model cannot estimate (no cost head or calibration) or no task qualifies.
 */
export async function estimateReadingGain(
  model: Pick<TrainedRewardModel, 'canEstimate' | 'score' | 'scoreMembers' | 'estimate'>,
  router: TemplateRouter,
  outcomes: readonly PlanOutcome[],
  margin = DEFAULT_TEMPLATE_MARGIN,
  signal?: AbortSignal,
): Promise<ReadingGain | undefined> {
  if (!model.canEstimate) return undefined;
  const names = router.names;
  const tasks = new Map<string, { question: string; suite: string; templates: Map<string, string>; samples: string[] }>();
  for (const outcome of outcomes) {
    if (outcome.split === 'test') continue;
    const entry = tasks.get(outcome.taskId) ?? { question: outcome.question, suite: outcome.suite ?? '', templates: new Map<string, string>(), samples: [] };
    if (outcome.template === undefined) entry.samples.push(outcome.planText);
    else if (!entry.templates.has(outcome.template)) entry.templates.set(outcome.template, outcome.planText);
    tasks.set(outcome.taskId, entry);
  }
  const bySuite = new Map<string, { tasks: number; samples: number; gains: number[] }>();
  for (const { question, suite, templates, samples } of tasks.values()) {
    signal?.throwIfAborted();
    if (samples.length === 0 || templates.size === 0) continue;
    const probabilities = router.probabilities(question, suite, names);
    const tokens = router.executionTokens(question, suite, names);
    // The router's accuracy pick, as bon's bar.
    const pick = routerAccuracyPick(probabilities);
    if (pick === undefined || tokens.some((value) => value === undefined)) continue;
    const barText = templates.get(names[pick]!);
    if (barText === undefined) continue;
    const texts = [...samples, barText];
    const [scores, members, estimates] = await Promise.all([model.score(question, texts, { signal }), model.scoreMembers(question, texts, { signal }), model.estimate(question, texts, { signal })]);
    const bar = texts.length - 1;
    const passing = samples.flatMap((_, sample) => {
      const spread = headDifference(members[sample] ?? [], members[bar] ?? []).spread;
      return scores[sample]! - scores[bar]! - margin * spread > 0 ? [estimates[sample]!] : [];
    });
    const entry = bySuite.get(suite) ?? { tasks: 0, samples: 0, gains: READING_GAIN_PRICES.map(() => 0) };
    entry.tasks += 1;
    entry.samples += samples.length;
    READING_GAIN_PRICES.forEach((price, index) => {
      const routed = Math.max(...names.map((_, position) => probabilities[position]! - price * tokens[position]!));
      const read = Math.max(routed, ...passing.map((estimate) => estimate.successProbability - price * estimate.executionTokens));
      entry.gains[index]! += read - routed;
    });
    bySuite.set(suite, entry);
  }
  if (bySuite.size === 0) return undefined;
  return {
    margin,
    prices: [...READING_GAIN_PRICES],
    suites: [...bySuite].map(([suite, entry]) => ({
      suite,
      tasks: entry.tasks,
      samplesPerTask: entry.samples / entry.tasks,
      // Rounded so a model file stays readable; clamped against float error at the bounds.
      gains: entry.gains.map((gain) => Math.min(1, Math.max(0, Number((gain / entry.tasks).toPrecision(6))))),
    })),
  };
}
