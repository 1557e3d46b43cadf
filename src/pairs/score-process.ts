import { normalizeAnswer } from '../agents/index.js';
import type { DebateArtifacts, ReflexionArtifacts, ScArtifacts, SearchArtifacts } from '../core/artifacts.js';
import type { Episode } from '../core/episode.js';
import type { EpisodeOutline, NodeOutline } from '../store/index.js';
import { normalizeWhitespace } from '../plan/index.js';
import type { ProcessRubric, ProcessTerm } from './process-rubric.js';

/** The process score of one episode and the value of every rubric term that applied to it. */
export interface ProcessScore {
  /** Weighted mean of the applicable terms, in [0, 1]. */
  score: number;
  terms: Partial<Record<ProcessTerm, number>>;
}

const FAILED_PLAN_STATUSES: ReadonlySet<Episode['status']> = new Set(['parse_error', 'invalid_plan']);
const OUT_OF_LIMITS: ReadonlySet<string> = new Set(['timeout', 'budget_exceeded']);

/**
 * Scores an episode's intermediate artifacts with the rubric, without any gold answer: plan
 * validity, node failures and budget overruns, agreement inside blocks and between nodes,
 * search feedback, and consistency of the final answer with the answers feeding it.
 * @example scoreProcess(episode, ProcessRubricSchema.parse({})).score // 0.83
 */
export function scoreProcess(episode: EpisodeOutline, rubric: ProcessRubric): ProcessScore {
  const terms: Partial<Record<ProcessTerm, number>> = {};
  const planValid = !FAILED_PLAN_STATUSES.has(episode.status) && episode.plan !== undefined;
  terms.planValid = planValid ? 1 : 0;
  const { nodes } = episode;
  if (nodes.length > 0) terms.nodeSuccess = nodes.filter((node) => node.status === 'ok').length / nodes.length;
  if (planValid) terms.withinBudget = OUT_OF_LIMITS.has(episode.status) || nodes.some((node) => OUT_OF_LIMITS.has(node.status)) ? 0 : 1;
  setMean(terms, 'blockAgreement', nodes.flatMap(blockAgreement));
  setMean(terms, 'crossNodeAgreement', crossNodeAgreements(nodes));
  const searchSteps = nodes.flatMap((node) => (node.artifacts?.kind === 'search' ? (node.artifacts as SearchArtifacts).steps : []));
  setMean(terms, 'searchFeedback', searchSteps.map((step) => (step.docIds.length > 0 && step.error === undefined ? 1 : 0)));
  const consistency = finalConsistency(episode);
  if (consistency !== undefined) terms.finalConsistency = consistency;

  let weighted = 0;
  let totalWeight = 0;
  for (const [term, value] of Object.entries(terms) as [ProcessTerm, number][]) {
    const weight = rubric.weights[term];
    weighted += weight * value;
    totalWeight += weight;
  }
  return { score: totalWeight === 0 ? 0 : weighted / totalWeight, terms };
}

function setMean(terms: Partial<Record<ProcessTerm, number>>, term: ProcessTerm, values: readonly number[]): void {
  if (values.length > 0) terms[term] = values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Agreement a block recorded about itself; none for blocks that do not vote, debate or critique. */
function blockAgreement(node: NodeOutline): number[] {
  const artifacts = node.artifacts;
  if (artifacts?.kind === 'sc') return [(artifacts as ScArtifacts).voteShare];
  if (artifacts?.kind === 'debate') {
    const debate = artifacts as DebateArtifacts;
    if (debate.converged) return [1];
    const lastTurns = debate.rounds.at(-1)?.turns ?? [];
    if (lastTurns.length === 0) return [];
    const final = normalizeAnswer(debate.finalAnswer);
    return [lastTurns.filter((turn) => normalizeAnswer(turn.answer) === final).length / lastTurns.length];
  }
  if (artifacts?.kind === 'reflexion') {
    const reflexion = artifacts as ReflexionArtifacts;
    const last = reflexion.rounds.at(-1);
    // No critique round ran (maxRounds 0): the critic never spoke, so there is nothing to count.
    if (last === undefined) return [];
    if (reflexion.acceptedAtRound !== undefined) return [1];
    return [last.verdict === 'unclear' ? 0.5 : 0];
  }
  return [];
}

/** For each set of two or more answered nodes given the same resolved input, the share of the most common answer. */
function crossNodeAgreements(nodes: readonly NodeOutline[]): number[] {
  const answersByInput = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.status !== 'ok' || node.answer === undefined) continue;
    const key = normalizeWhitespace(node.input).toLowerCase();
    const answers = answersByInput.get(key) ?? [];
    answers.push(normalizeAnswer(node.answer));
    answersByInput.set(key, answers);
  }
  return [...answersByInput.values()].filter((answers) => answers.length >= 2).map(pluralityShare);
}

function pluralityShare(answers: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  return Math.max(...counts.values()) / answers.length;
}

/** Share of the (two or more) answers feeding the answer node that equal the final answer. */
function finalConsistency(episode: EpisodeOutline): number | undefined {
  const { plan, finalAnswer } = episode;
  if (plan === undefined || plan.answer === undefined || finalAnswer === undefined) return undefined;
  const answerById = new Map(episode.nodes.map((node) => [node.nodeId, node.answer]));
  const feeding = plan.edges
    .filter((edge) => edge.to === plan.answer)
    .map((edge) => answerById.get(edge.from))
    .filter((answer): answer is string => answer !== undefined);
  if (feeding.length < 2) return undefined;
  const final = normalizeAnswer(finalAnswer);
  return feeding.filter((answer) => normalizeAnswer(answer) === final).length / feeding.length;
}
