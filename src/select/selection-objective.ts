import { z } from 'zod';
import type { PlanEstimate } from '../core/index.js';

/**
 * What a reward-model strategy maximises when it picks the one plan to execute (issue 22):
 * - `accuracy`: the highest score (the model's best guess at the most accurate plan), as before.
 * - `price`: expected accuracy minus `pricePerToken` times predicted execution tokens: the plan
 *   of a user to whom a task answered correctly is worth 1 / `pricePerToken` tokens.
 * - `cheapest-within`: the plan with the fewest predicted execution tokens among those whose
 *   expected accuracy is within `margin` of the best.
 * Expected accuracy is the model's calibrated success probability and predicted tokens its
 * cost head's (`CostAwareRewardModel.estimate`).
 */
export const SelectionObjectiveSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('accuracy') }),
  z.strictObject({ kind: z.literal('price'), pricePerToken: z.number().min(0) }),
  z.strictObject({ kind: z.literal('cheapest-within'), margin: z.number().min(0).max(1) }),
]);
export type SelectionObjective = z.infer<typeof SelectionObjectiveSchema>;

export const OBJECTIVE_NAMES = ['accuracy', 'price', 'cheapest-within'] as const;

/** `accuracy`, `price=0.00001`, `cheapest-within=0.02`: how reports name an operating point. */
export function objectiveLabel(objective: SelectionObjective): string {
  if (objective.kind === 'accuracy') return 'accuracy';
  if (objective.kind === 'price') return `price=${objective.pricePerToken}`;
  return `cheapest-within=${objective.margin}`;
}

/**
 * The candidate an objective picks among `eligible` (pool indices, the accuracy objective's pick
 * first, so it wins every tie), given each pool candidate's estimate. `accuracy` returns
 * `eligible[0]`.
 *
 * @example
 * chooseByObjective([2, 0, 1], estimates, { kind: 'price', pricePerToken: 1e-5 })
 */
export function chooseByObjective(eligible: readonly number[], estimates: readonly PlanEstimate[], objective: SelectionObjective): number {
  const first = eligible[0];
  if (first === undefined) throw new RangeError('chooseByObjective needs at least one eligible candidate');
  if (objective.kind === 'accuracy') return first;
  const estimate = (index: number) => estimates[index] ?? { successProbability: 0, executionTokens: Number.POSITIVE_INFINITY };
  if (objective.kind === 'price') {
    let best = first;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const index of eligible) {
      const { successProbability, executionTokens } = estimate(index);
      const value = successProbability - objective.pricePerToken * executionTokens;
      if (value > bestValue) [best, bestValue] = [index, value];
    }
    return best;
  }
  let bestProbability = Number.NEGATIVE_INFINITY;
  for (const index of eligible) bestProbability = Math.max(bestProbability, estimate(index).successProbability);
  let best = first;
  let bestCost = Number.POSITIVE_INFINITY;
  for (const index of eligible) {
    const { successProbability, executionTokens } = estimate(index);
    if (successProbability < bestProbability - objective.margin) continue;
    // Strictly cheaper: equal costs keep the earlier candidate (the accuracy pick first).
    if (executionTokens < bestCost) [best, bestCost] = [index, executionTokens];
  }
  return best;
}
