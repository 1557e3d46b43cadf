import { LRUCache } from 'lru-cache';
import { type BlockRegistry, normalizeAnswer } from '../../agents/index.js';
import { deriveSeed, fnv1a32, type Retriever } from '../../core/index.js';
import { runEpisode } from '../../exec/index.js';
import type { ChatProvider } from '../../llm/index.js';
import { parsePlan } from '../../plan/index.js';

/** Bound on cached imagined outcomes (question x plan); the oldest go first. */
const MAX_CACHED_ESTIMATES = 50_000;

export interface PlanImagination {
  /** A simulated worker over the scenario's families with its own latent seed (never the real world's). */
  worker: ChatProvider;
  blocks: BlockRegistry;
  retriever: Retriever;
  /** Imagined executions per plan. */
  runs: number;
}

/**
 * How often a plan succeeds in the plan judge's imagination: it executes the plan `runs`
 * times with a simulated worker whose shared latents come from another seed than the real
 * world's, and counts the runs whose answer equals the task's correct answer. This is the
 * judge's knowledge of how well such plans work on such tasks in general (the competence
 * model); it never sees how this task's real executions will turn out. Invalid plans: -1.
 * Cached per (question, plan) so a plan shown at several N is imagined once.
 */
export class PlanSuccessEstimator {
  // lru-cache: a Map trimmed at its first key walks its deleted entries (see TrainedRewardModel).
  private readonly cache = new LRUCache<string, Promise<number>>({ max: MAX_CACHED_ESTIMATES });

  constructor(private readonly imagination: PlanImagination) {}

  /** Successes out of `runs` (or -1 for a plan that does not parse or validate). */
  successes(question: string, correctAnswer: string, planText: string): Promise<number> {
    const key = `${question}\u0000${planText}`;
    let estimate = this.cache.get(key);
    if (estimate === undefined) {
      estimate = this.imagine(question, correctAnswer, planText);
      this.cache.set(key, estimate);
    }
    return estimate;
  }

  private async imagine(question: string, correctAnswer: string, planText: string): Promise<number> {
    const { worker, blocks, retriever, runs } = this.imagination;
    if (!parsePlan(planText, { catalog: blocks }).ok) return -1;
    const task = { id: 'imagined', suite: 'imagined', question, metadata: {} };
    const target = normalizeAnswer(correctAnswer);
    const planSeed = fnv1a32(`${question}\u0000${planText}`);
    const episodes = await Promise.all(
      Array.from({ length: runs }, (_, run) =>
        runEpisode({ task, planText, blocks, provider: worker, retriever, seed: deriveSeed(planSeed, `imagine:${run}`), sampleIndex: run, orchestrator: { name: 'sim-judge' } }),
      ),
    );
    return episodes.filter((episode) => episode.finalAnswer !== undefined && normalizeAnswer(episode.finalAnswer) === target).length;
  }
}

/** The judge's score of a plan: logit((k + 0.5) / (runs + 1)), -Infinity for an invalid plan. */
export function imaginedLogit(successes: number, runs: number): number {
  if (successes < 0) return Number.NEGATIVE_INFINITY;
  return Math.log((successes + 0.5) / (runs - successes + 0.5));
}
