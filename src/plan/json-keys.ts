import type { PlanWarning } from '../core/plan.js';
import { planWarning } from './plan-diagnostic.js';

export type JsonRecord = Record<string, unknown>;

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Canonical key first, then the spellings orchestrators use for it. */
export const PLAN_KEYS = {
  nodes: ['nodes', 'agents'],
  edges: ['edges', 'links', 'connections'],
  dom: ['dom', 'degree_of_mas', 'degree', 'DoM'],
  thinking: ['thinking', 'reasoning', 'thoughts', 'rationale'],
  answer: ['answer', 'answer_node', 'final_agent', 'final_node', 'output', 'output_node'],
  directAnswer: ['directAnswer', 'direct_answer', 'answer', 'final_answer'],
} as const;

export const NODE_KEYS = {
  id: ['id', 'agent_id', 'node_id'],
  agent: ['agent', 'agent_name', 'type', 'block', 'agent_type'],
  input: ['input', 'agent_input', 'task', 'subtask', 'prompt'],
  description: ['description', 'agent_description'],
  params: ['params', 'required_arguments', 'parameters', 'arguments'],
  dependsOn: ['depends_on', 'dependencies'],
} as const;

export const EDGE_KEYS = { from: ['from', 'source', 'src'], to: ['to', 'target', 'dst'] } as const;

/** Keys whose presence makes a JSON object look like a plan (used to pick among candidates). */
export const PLAN_LIKE_KEYS: ReadonlySet<string> = new Set([...Object.values(PLAN_KEYS).flat(), 'plan']);

/** Reports each non-canonical spelling once per plan, at its first place. */
export class KeyVariantReporter {
  private readonly seen = new Set<string>();
  constructor(private readonly warnings: PlanWarning[]) {}

  report(written: string, canonical: string, path: string): void {
    if (written === canonical || this.seen.has(written)) return;
    this.seen.add(written);
    this.warnings.push(planWarning('key_variant', path, `read "${written}" as "${canonical}"; write "${canonical}"`));
  }

  ignore(key: string, path: string): void {
    if (this.seen.has(`ignored:${key}`)) return;
    this.seen.add(`ignored:${key}`);
    this.warnings.push(planWarning('ignored_key', path, `"${key}" has no meaning in a plan and was ignored`));
  }
}

/** The first of `keys` present in `record`, reporting a variant spelling. */
export function readKey(record: JsonRecord, keys: readonly string[], path: string, reporter: KeyVariantReporter): { key: string; value: unknown } | undefined {
  for (const key of keys) {
    if (Object.hasOwn(record, key) && record[key] !== undefined) {
      reporter.report(key, keys[0]!, path);
      return { key, value: record[key] };
    }
  }
  return undefined;
}
