import { HttpError, type RewardModel, UserError } from '../core/index.js';

/**
 * Scores (task, plan) items with one model call per distinct task (calls run concurrently) and
 * returns the scores in item order. A model that refuses the input (UserError) becomes a 400;
 * any other failure, or a reply of the wrong length or with a non-finite score, a 500.
 */
export async function scorePlans(model: RewardModel, items: readonly { task: string; plan: string }[], signal: AbortSignal): Promise<number[]> {
  const groups = new Map<string, number[]>(); // task -> item indices
  items.forEach((item, index) => {
    const indices = groups.get(item.task);
    if (indices) indices.push(index);
    else groups.set(item.task, [index]);
  });
  const scores = new Array<number>(items.length);
  await Promise.all(
    [...groups].map(async ([task, indices]) => {
      const groupScores = await callModel(model, task, indices.map((index) => items[index]!.plan), signal);
      indices.forEach((itemIndex, position) => {
        scores[itemIndex] = groupScores[position]!;
      });
    }),
  );
  return scores;
}

async function callModel(model: RewardModel, task: string, plans: string[], signal: AbortSignal): Promise<number[]> {
  let scores: number[];
  try {
    scores = await model.score(task, plans, { signal });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UserError) throw new HttpError(400, 'model_rejected_input', `the reward model cannot score this input: ${message}`);
    throw new HttpError(500, 'model_error', `the reward model ${model.name} failed: ${message}`);
  }
  if (scores.length !== plans.length) {
    throw new HttpError(500, 'model_error', `the reward model ${model.name} returned ${scores.length} scores for ${plans.length} plans; this is a bug in the model`);
  }
  // JSON has no NaN or Infinity: they would go out as null and break the client's arithmetic.
  const bad = scores.findIndex((score) => !Number.isFinite(score));
  if (bad >= 0) throw new HttpError(500, 'model_error', `the reward model ${model.name} returned a non-finite score (${scores[bad]}) for plan ${bad}`);
  return scores;
}
