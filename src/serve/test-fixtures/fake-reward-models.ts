import { UserError } from '../../core/errors.js';
import type { Plan } from '../../core/plan.js';
import type { RewardModel } from '../../core/reward-model.js';

/**
 * A deterministic model for tests and benchmarks: the score is the plan's length in characters
 * minus a tenth of the task's, so tests can predict every number and see which task was read.
 */
export function createLengthRewardModel(): RewardModel & { calls: { task: string; plans: string[] }[] } {
  const calls: { task: string; plans: string[] }[] = [];
  return {
    name: 'length',
    calls,
    async score(task, plans) {
      const texts = plans.map(planText);
      calls.push({ task, plans: texts });
      return texts.map((plan) => plan.length - task.length / 10);
    },
  };
}

/** A model that answers after `delayMs` (or when aborted), to exercise in-flight requests and shutdown. */
export function createSlowRewardModel(delayMs: number): RewardModel & { aborted: number; started: number } {
  const model = {
    name: 'slow',
    aborted: 0,
    /** Calls begun: a test waits on it to know a request is in flight, however loaded the machine. */
    started: 0,
    score(_task: string, plans: readonly (string | Plan)[], options?: { signal?: AbortSignal }): Promise<number[]> {
      model.started++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(plans.map((_, index) => index)), delayMs);
        options?.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          model.aborted++;
          reject(new Error('aborted'));
        });
      });
    },
  };
  return model;
}

/** A model that fails in a chosen way: throws a bug, refuses the input, or returns a bad reply. */
export function createBrokenRewardModel(failure: 'throws' | 'refuses' | 'wrong-length' | 'nan'): RewardModel {
  return {
    name: `broken-${failure}`,
    async score(_task, plans) {
      if (failure === 'throws') throw new TypeError('cannot read properties of undefined');
      if (failure === 'refuses') throw new UserError('the plan is longer than the 10000 characters this model reads');
      if (failure === 'wrong-length') return [1];
      return plans.map(() => Number.NaN);
    },
  };
}

function planText(plan: string | Plan): string {
  return typeof plan === 'string' ? plan : JSON.stringify(plan);
}
