import type { Plan, PlanNode } from '../core/plan.js';
import type { BlockCatalog } from './block-specs.js';

/**
 * The plan's nodes with canonical agent names and params parsed by their block's schema, so
 * every default is explicit (`{}` on a `sc` node becomes `{temperature: 0.5, samples: 5}`).
 * Nodes whose block is unknown or whose params do not parse are returned unchanged; run
 * `validatePlan` first to hear about them.
 *
 * @example
 * applyParamDefaults(plan, catalog)[0].params // { temperature: 0.5, samples: 5 }
 */
export function applyParamDefaults(plan: Plan, catalog: BlockCatalog): PlanNode[] {
  return plan.nodes.map((node) => {
    const spec = catalog.resolve(node.agent);
    if (!spec) return node;
    const parsed = spec.paramsSchema.safeParse(node.params);
    return { ...node, agent: spec.name, params: parsed.success ? parsed.data : node.params };
  });
}
