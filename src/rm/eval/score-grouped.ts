import { ModelBehaviorError, type RewardModel } from '../../core/index.js';

/** One plan to score for one task; `scores[i]` answers `items[i]`. */
export interface ScoringItem {
  question: string;
  planText: string;
}

/**
 * Scores items with one `score` call per distinct task text, each plan text scored once, and
 * returns the scores in item order. Refuses non-finite scores: every metric here compares
 * numbers, and a NaN would silently count as a loss or a tie.
 */
export async function scoreGrouped(
  items: readonly ScoringItem[],
  score: (question: string, plans: readonly string[]) => Promise<number[]> | number[],
  modelName: string,
): Promise<Float64Array> {
  const byQuestion = new Map<string, Map<string, number[]>>();
  items.forEach(({ question, planText }, index) => {
    let plans = byQuestion.get(question);
    if (plans === undefined) byQuestion.set(question, (plans = new Map()));
    let positions = plans.get(planText);
    if (positions === undefined) plans.set(planText, (positions = []));
    positions.push(index);
  });
  const scores = new Float64Array(items.length);
  for (const [question, plans] of byQuestion) {
    const texts = [...plans.keys()];
    const result = await score(question, texts);
    if (result.length !== texts.length) throw new ModelBehaviorError(`reward model ${modelName} returned ${result.length} scores for ${texts.length} plans`);
    texts.forEach((text, position) => {
      const value = result[position] as number;
      if (!Number.isFinite(value)) throw new ModelBehaviorError(`reward model ${modelName} returned a non-finite score (${value}) for a plan of task "${question.slice(0, 60)}"`);
      for (const index of plans.get(text)!) scores[index] = value;
    });
  }
  return scores;
}

/** `model.score` in the shape `scoreGrouped` takes. */
export function scoreWith(model: RewardModel, signal?: AbortSignal) {
  return (question: string, plans: readonly string[]) => model.score(question, plans, signal ? { signal } : {});
}
