import type { Diagnostic, Plan } from '../../core/index.js';
import {
  buildGraph,
  canonicalizePlan,
  formatPlanXml,
  parsePlan,
  planObjectWarnings,
  renderInvalidPlan,
  semanticWarningCodes,
  topologicalOrder,
  validatePlan,
  withWarningLine,
  type BlockCatalog,
} from '../../plan/index.js';
import { murmur3String } from './murmur3.js';
import { planShape } from './plan-shape.js';
import { hashWords } from './tokenize.js';

/**
 * A plan as the reward model sees it: the canonical rendering (or, for an unparseable or
 * invalid plan, its diagnostic form `INVALID PLAN: codes`), the canonical plan when valid, and
 * the hashes the encoders share.
 */
export interface PlanAnalysis {
  /** Exactly what `renderParseResult` prints for this plan. */
  readonly text: string;
  /** The canonical plan; undefined when the plan is invalid. */
  readonly plan: Plan | undefined;
  /** Distinct diagnostic codes, sorted; empty for a valid plan. */
  readonly diagnosticCodes: readonly string[];
  /**
   * Distinct semantic warning codes of a valid plan (something ignored or repaired, e.g.
   * `ref_edge_mismatch`), sorted; they end `text` and become `warn:` structure features.
   */
  readonly warningCodes: readonly string[];
  /** Hash of every lower-cased word of `text`. */
  readonly wordHashes: Uint32Array;
  /**
   * Hashes (seed 0) of the plan's kinds for crosses: each distinct block type present
   * (`block=cot`), plus `plan=direct` for a direct answer or `plan=invalid`, and `dom=...`.
   */
  readonly kindHashes: Uint32Array;
  /** The plan's shape names (`planShape`), which the `shape`, `route` and `popularity` encoders all cross. */
  readonly shapeNames: readonly string[];
  /** Hashes (seed 0) of `shapeNames`, computed once per plan for every encoder that crosses them. */
  readonly shapeHashes: Uint32Array;
}

function hashText(text: string): Uint32Array {
  const scratch = new Uint32Array((text.length >> 1) + 1);
  return scratch.slice(0, hashWords(text, scratch));
}

/** The names behind `PlanAnalysis.kindHashes`, in the same order. */
export function kindNames(plan: Plan | undefined): string[] {
  if (plan === undefined) return ['plan=invalid'];
  const names = new Set<string>([`dom=${plan.dom}`]);
  if (plan.nodes.length === 0) names.add('plan=direct');
  for (const node of plan.nodes) names.add(`block=${node.agent}`);
  return [...names];
}

/**
 * A `PlanAnalysis` whose text, shape and hashes are computed on first read: most encoder specs (the
 * default `shape` among them) read only the plan, and rendering the canonical XML and hashing
 * its words is a large share of scoring a fresh plan text.
 */
class LazyPlanAnalysis implements PlanAnalysis {
  private renderedText: string | undefined;
  private words: Uint32Array | undefined;
  private kinds: Uint32Array | undefined;
  private shapes: readonly string[] | undefined;
  private shapeHashValues: Uint32Array | undefined;

  constructor(
    readonly plan: Plan | undefined,
    readonly diagnosticCodes: readonly string[],
    readonly warningCodes: readonly string[],
    private readonly diagnostics: readonly Diagnostic[],
  ) {}

  get text(): string {
    return (this.renderedText ??= this.plan === undefined ? renderInvalidPlan(this.diagnostics) : withWarningLine(formatPlanXml(this.plan), this.warningCodes));
  }

  get wordHashes(): Uint32Array {
    return (this.words ??= hashText(this.text));
  }

  get kindHashes(): Uint32Array {
    return (this.kinds ??= Uint32Array.from(kindNames(this.plan), (name) => murmur3String(name, 0)));
  }

  get shapeNames(): readonly string[] {
    return (this.shapes ??= planShape(this));
  }

  get shapeHashes(): Uint32Array {
    return (this.shapeHashValues ??= Uint32Array.from(this.shapeNames, (name) => murmur3String(name, 0)));
  }
}

/** Analysis of an already-canonical plan, with the semantic warning codes its parse gave. */
export function analyzeCanonicalPlan(plan: Plan, warningCodes: readonly string[] = []): PlanAnalysis {
  return new LazyPlanAnalysis(plan, [], warningCodes, []);
}

/** Analysis of a plan that did not parse or validate: only its diagnostic form is seen. */
export function analyzeInvalidPlan(diagnostics: readonly Diagnostic[]): PlanAnalysis {
  const diagnosticCodes = [...new Set(diagnostics.map((diagnostic) => diagnostic.code))].sort();
  return new LazyPlanAnalysis(undefined, diagnosticCodes, [], diagnostics);
}

/**
 * Parses (text) or validates (object) a plan against the catalog and analyses its canonical
 * form. Never throws: bad plans are analysed in their diagnostic form.
 *
 * @example
 * analyzePlan('{"dom":"low","nodes":[],"answer":"4"}', catalog).text // canonical XML
 */
export function analyzePlan(input: string | Plan, catalog: BlockCatalog): PlanAnalysis {
  if (typeof input === 'string') {
    const result = parsePlan(input, { catalog });
    if (!result.ok) return analyzeInvalidPlan(result.diagnostics);
    return analyzeCanonicalPlan(canonicalizePlan(result.plan, catalog, { referencesLinked: true }), semanticWarningCodes(result.warnings));
  }
  const diagnostics = validatePlan(input, catalog);
  if (diagnostics.length > 0) return analyzeInvalidPlan(diagnostics);
  return analyzeCanonicalPlan(canonicalizePlan(input, catalog), semanticWarningCodes(planObjectWarnings(input)));
}

/**
 * The first `k` nodes of a valid canonical plan in topological order, with the edges among
 * them, canonicalised again (so the prefix renders exactly as a plan with those nodes would).
 * For an invalid plan the analysis is returned unchanged: its diagnostic form has no prefix.
 */
export function planPrefix(analysis: PlanAnalysis, k: number, catalog: BlockCatalog): PlanAnalysis {
  const plan = analysis.plan;
  if (plan === undefined || k >= plan.nodes.length) return analysis;
  const graph = buildGraph(plan.nodes.map((node) => node.id), plan.edges);
  const kept = new Set(topologicalOrder(graph).order.slice(0, Math.max(0, k)));
  const prefix: Plan = {
    dom: plan.dom,
    nodes: plan.nodes.filter((node) => kept.has(node.id)),
    edges: plan.edges.filter((edge) => kept.has(edge.from) && kept.has(edge.to)),
  };
  return analyzeCanonicalPlan(canonicalizePlan(prefix, catalog));
}
