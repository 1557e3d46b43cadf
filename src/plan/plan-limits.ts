import type { Diagnostic } from '../core/index.js';
import { planDiagnostic } from './plan-diagnostic.js';

/**
 * Structural bounds no real plan comes near (the paper's plans have at most a dozen agents).
 * They are checked before the expensive steps (mapping, validation, building edge lists), so
 * a hostile 1 MB text with tens of thousands of nodes or edges is refused in linear time
 * with a `too_large` diagnostic instead of being mapped and validated item by item.
 */
export const MAX_PLAN_NODES = 256;
/** Edges (JSON `edges` items, XML `<from>`/`<to>` pairs) beyond this are refused. */
export const MAX_PLAN_EDGES = 4096;
/**
 * JSON with syntax errors is repaired with `jsonrepair` only up to this many characters:
 * repair costs far more than `JSON.parse`, and a plan is a few kilobytes. Strict JSON of any
 * size up to the input limit is still read.
 */
export const MAX_REPAIR_CHARS = 100_000;

/** The `too_large` diagnostic for a plan with more `what` (nodes, edges) than `limit`. */
export function tooManyDiagnostic(what: 'nodes' | 'edges', path: string, count: number | undefined, limit: number): Diagnostic {
  const counted = count === undefined ? `more than ${limit}` : `${count}`;
  const fix = what === 'nodes' ? 'a plan needs a handful of agents; merge steps into fewer nodes' : 'a plan needs a few edges; connect only nodes that pass outputs';
  return planDiagnostic('too_large', path, `the plan has ${counted} ${what}, more than the limit of ${limit} (MAX_PLAN_${what.toUpperCase()}); ${fix}`);
}
