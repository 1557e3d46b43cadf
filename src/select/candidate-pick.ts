import type { Plan, PlanParseResult } from '../core/index.js';

/**
 * Which candidate a strategy settled on for one task, as `bon` stores it with the task's outcome
 * (`TaskOutcome.pick`) and results.json carries it (`bon.picks`). This is the record that shows
 * whether a reward model routes by the task: across a family's tasks, how often its choice
 * differs from the family's best fixed plan, and whether those switches win or lose.
 */
export interface CandidatePick {
  /** Pool index: 0..max(N)-1 are the sampled plans in sample order, then the templates in library order. */
  index: number;
  /** `sample`: written by the orchestrator; `template`: from the template pool. */
  source: 'sample' | 'template';
  /**
   * The plan's kind: a template's name; for a sample, the name of the template whose canonical
   * plan it equals (the same plan, written by the orchestrator), else `sample:<shape>`, e.g.
   * `sample:reflexion(maxRounds=5,temperature=0.7)`, `sample:3 nodes cot>sc`, `sample:direct`,
   * `sample:invalid`.
   */
  kind: string;
  /** The reward model's score of the candidate, for the strategies that rank by it. */
  score?: number;
  /**
   * The model's uncertainty about this pick against the best template (the standard deviation,
   * over its bootstrap heads, of the score difference), for `rm+templates` when the model has heads.
   */
  uncertainty?: number;
}

/** Longest kind label kept (a plan with unusual parameters is cut here). */
const MAX_KIND_LENGTH = 80;

/** A parameter value as a short label: numbers and booleans as written, a list by its length. */
function paramLabel(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `${value.length}`;
  return undefined;
}

/**
 * A short structural label of a sampled plan that is none of the templates: no words of it, only
 * its blocks and their numeric parameters (`reflexion(maxRounds=5,temperature=0.7)`), or for a
 * decomposition its node count, inner blocks and answer block (`3 nodes cot>sc`).
 *
 * @example
 * sampleKind({ ok: true, plan, warnings: [] }) // 'sample:sc(samples=5,temperature=0.7)'
 */
export function sampleKind(parsed: PlanParseResult): string {
  if (!parsed.ok) return 'sample:invalid';
  const label = planShapeLabel(parsed.plan);
  return `sample:${label}`.slice(0, MAX_KIND_LENGTH);
}

function planShapeLabel(plan: Plan): string {
  if (plan.nodes.length === 0) return 'direct';
  const answer = plan.nodes.find((node) => node.id === plan.answer) ?? plan.nodes.at(-1)!;
  if (plan.nodes.length === 1) {
    const params = Object.entries(answer.params)
      .map(([key, value]) => [key, paramLabel(value)] as const)
      .filter((entry): entry is readonly [string, string] => entry[1] !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => `${key}=${value}`);
    return params.length === 0 ? answer.agent : `${answer.agent}(${params.join(',')})`;
  }
  const inner = [...new Set(plan.nodes.filter((node) => node !== answer).map((node) => node.agent))].sort();
  return `${plan.nodes.length} nodes ${inner.join('+')}>${answer.agent}`;
}
