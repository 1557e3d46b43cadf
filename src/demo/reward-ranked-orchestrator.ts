import { addUsage, deriveSeed, type RewardModel } from '../core/index.js';
import { countTokens } from '../llm/index.js';
import { canonicalPlanText } from '../plan/index.js';
import type { Orchestrator, WrittenPlan } from '../orchestrator/index.js';

/**
 * An orchestrator that writes `candidates` plans with an inner one and returns the plan a
 * reward model scores highest: Best-of-N at collection time, so the episodes a self-improving
 * loop collects get better as its reward model does. The returned call record carries the
 * tokens of all candidates written (they were all paid for); `onScored` reports the tokens the
 * reward model read, which belong to verification.
 */
export function createRewardRankedOrchestrator(
  inner: Orchestrator,
  rewardModel: RewardModel,
  candidates: number,
  onScored: (readTokens: number) => void,
): Orchestrator {
  return {
    ref: inner.ref,
    format: inner.format,
    dom: inner.dom,
    async writePlan(task, options): Promise<WrittenPlan> {
      const written = await Promise.all(
        Array.from({ length: candidates }, (_, candidate) => inner.writePlan(task, { ...options, seed: deriveSeed(options.seed, `candidate:${candidate}`) })),
      );
      const scores = await rewardModel.score(task.question, written.map((plan) => plan.text));
      // The reward model reads the task and each canonical plan, as Best-of-N counts it.
      const questionTokens = countTokens(task.question);
      onScored(written.reduce((sum, plan) => sum + questionTokens + countTokens(canonicalPlanText(plan.text)), 0));
      let best = 0;
      scores.forEach((score, index) => {
        if (score > (scores[best] as number)) best = index;
      });
      const chosen = written[best] as WrittenPlan;
      if (!chosen.call) return chosen;
      const usage = addUsage(...written.map((plan) => plan.call?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 }));
      return { ...chosen, call: { ...chosen.call, usage } };
    },
  };
}
