import { z } from 'zod';
import { normalizeAnswer } from '../agents/index.js';
import type { DebateArtifacts, Episode, ReflexionArtifacts, ScArtifacts, SearchArtifacts } from '../core/index.js';
import type { EpisodeOutline, NodeOutline } from '../store/index.js';

/**
 * The label-free signals the process miner reads from an episode's artifacts, in the order it
 * consults them. None reads a grade or a gold answer.
 * - `consensus`: how many of the task's other episodes reached the same final answer
 *   (self-consistency across plans).
 * - `grounding`: whether the final answer occurs in a document a search step retrieved.
 * - `agreement`: what the answer node's block recorded about itself: self-consistency vote
 *   share, debate agreement in the last round, the critic's acceptance in reflexion.
 * - `consistency`: how many of the answers feeding the answer node equal the final answer.
 * - `health`: the share of nodes that finished with an answer (malformed, failed, timed-out and
 *   skipped sub-agents count against).
 * `validity` (a plan that parsed and validated over one that did not) is the only signal that
 * compares a valid plan with an invalid one; every other signal compares two valid plans.
 */
export const PROCESS_SIGNALS = ['consensus', 'grounding', 'agreement', 'consistency', 'health'] as const;
export type ProcessSignal = (typeof PROCESS_SIGNALS)[number] | 'validity';

const signal = (threshold: number) =>
  z.strictObject({
    /** @default true */
    enabled: z.boolean().default(true),
    /** Least difference of the signal's values (each in [0, 1]) that decides a pair. */
    threshold: z.number().gt(0).max(1).default(threshold),
  });

/**
 * Which process signals decide pairs and how large a difference must be. Recorded with every
 * mined dataset; docs/pairs.md explains each signal and what it agreed with on the default scenario.
 * @example ProcessSignalsConfigSchema.parse({ consensus: { threshold: 0.3 }, health: { enabled: false } })
 */
export const ProcessSignalsConfigSchema = z.strictObject({
  validity: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
  /** Difference in the share of the other episodes that gave the same final answer; 0.1 means one more agreeing episode, with up to ten episodes per task. @default 0.1 */
  consensus: signal(0.1).prefault({}),
  /** Grounded (1) against not grounded (0). */
  grounding: signal(1).prefault({}),
  agreement: signal(0.3).prefault({}),
  consistency: signal(0.5).prefault({}),
  health: signal(0.25).prefault({}),
  /** When above 0, each valid-vs-valid process pair carries `margin = marginScale * difference`. @default 0 */
  marginScale: z.number().nonnegative().default(0),
});
export type ProcessSignalsConfig = z.infer<typeof ProcessSignalsConfigSchema>;
export type ProcessSignalsConfigInput = z.input<typeof ProcessSignalsConfigSchema>;

/** What the process miner knows of one episode's artifacts (all label-free). */
export interface ArtifactSignals {
  /** The plan parsed and validated. */
  valid: boolean;
  /** The final answer, normalised as voting normalises it; '' when the episode has none. */
  answer: string;
  grounding?: number;
  agreement?: number;
  consistency?: number;
  health?: number;
}

const FAILED_PLAN_STATUSES: ReadonlySet<Episode['status']> = new Set(['parse_error', 'invalid_plan']);

/**
 * Reads the per-episode signals from an episode outline (consensus needs the task's other
 * episodes and is computed by the miner).
 * @example readArtifactSignals(episode) // { valid: true, answer: '42', agreement: 0.8, health: 1 }
 */
export function readArtifactSignals(episode: EpisodeOutline): ArtifactSignals {
  const valid = !FAILED_PLAN_STATUSES.has(episode.status) && episode.plan !== undefined;
  const answer = episode.finalAnswer === undefined ? '' : normalizeAnswer(episode.finalAnswer);
  const signals: ArtifactSignals = { valid, answer };
  if (!valid) return signals;
  const { nodes } = episode;
  if (nodes.length > 0) signals.health = nodes.filter((node) => node.status === 'ok' && node.answer !== undefined && node.answer.trim() !== '').length / nodes.length;
  const grounding = groundingOf(nodes, answer);
  if (grounding !== undefined) signals.grounding = grounding;
  const answerNode = nodes.find((node) => node.nodeId === episode.plan?.answer);
  const agreement = answerNode === undefined ? undefined : blockAgreement(answerNode);
  if (agreement !== undefined) signals.agreement = agreement;
  const consistency = finalConsistency(episode, answer);
  if (consistency !== undefined) signals.consistency = consistency;
  return signals;
}

/**
 * 1 when a search node whose answer occurs in its retrieved documents gave the final answer, 0
 * when search nodes judged grounding but none grounded the final answer, undefined without one.
 */
function groundingOf(nodes: readonly NodeOutline[], answer: string): number | undefined {
  let judged = false;
  for (const node of nodes) {
    if (node.artifacts?.kind !== 'search') continue;
    const grounded = (node.artifacts as SearchArtifacts).answerInDocuments;
    if (grounded === undefined) continue;
    judged = true;
    if (grounded && node.answer !== undefined && answer !== '' && normalizeAnswer(node.answer) === answer) return 1;
  }
  return judged ? 0 : undefined;
}

/** Agreement a block recorded about its own answer; none for blocks that do not vote, debate or critique. */
function blockAgreement(node: NodeOutline): number | undefined {
  const artifacts = node.artifacts;
  if (artifacts?.kind === 'sc') return (artifacts as ScArtifacts).voteShare;
  if (artifacts?.kind === 'debate') {
    const debate = artifacts as DebateArtifacts;
    if (debate.converged) return 1;
    const lastTurns = debate.rounds.at(-1)?.turns ?? [];
    if (lastTurns.length === 0) return undefined;
    const final = normalizeAnswer(debate.finalAnswer);
    return lastTurns.filter((turn) => normalizeAnswer(turn.answer) === final).length / lastTurns.length;
  }
  if (artifacts?.kind === 'reflexion') {
    const reflexion = artifacts as ReflexionArtifacts;
    const last = reflexion.rounds.at(-1);
    // No critique round ran (maxRounds 0): the critic never spoke.
    if (last === undefined) return undefined;
    if (reflexion.acceptedAtRound !== undefined) return 1;
    return last.verdict === 'unclear' ? 0.5 : 0;
  }
  return undefined;
}

/** Share of the (two or more) answers feeding the answer node that equal the final answer. */
function finalConsistency(episode: EpisodeOutline, answer: string): number | undefined {
  const { plan } = episode;
  if (plan === undefined || plan.answer === undefined || answer === '') return undefined;
  const answerById = new Map(episode.nodes.map((node) => [node.nodeId, node.answer]));
  const feeding = plan.edges
    .filter((edge) => edge.to === plan.answer)
    .map((edge) => answerById.get(edge.from))
    .filter((value): value is string => value !== undefined);
  if (feeding.length < 2) return undefined;
  return feeding.filter((value) => normalizeAnswer(value) === answer).length / feeding.length;
}

/**
 * Consensus of every episode of a task: for each valid episode with an answer, the share of the
 * other valid, answered episodes that gave the same answer (undefined when there is no other).
 */
export function consensusOf(signals: readonly ArtifactSignals[]): (number | undefined)[] {
  const counts = new Map<string, number>();
  let answered = 0;
  for (const entry of signals) {
    if (!entry.valid || entry.answer === '') continue;
    answered++;
    counts.set(entry.answer, (counts.get(entry.answer) ?? 0) + 1);
  }
  return signals.map((entry) => {
    if (!entry.valid || entry.answer === '' || answered < 2) return undefined;
    return ((counts.get(entry.answer) ?? 1) - 1) / (answered - 1);
  });
}
