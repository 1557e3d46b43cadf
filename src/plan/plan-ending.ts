import type { Diagnostic } from '../core/plan.js';
import { planDiagnostic } from './plan-diagnostic.js';
import { findElements, openAtEnd, type XmlElement, type XmlTree } from './xml-tree.js';

/**
 * How plan text ends. An orchestrator cut off at its token limit stops in the middle of its
 * plan; the parser names that (`truncated`) instead of reporting what went missing
 * (`multiple_sinks` after the last edges were lost), and never runs the part it got: a plan cut
 * after its third agent would otherwise run with an intermediate step as its answer.
 * - `complete`: the plan was finished;
 * - `truncated`: the text stops with the plan still open (inside an agent, a value, the edge
 *   block, a JSON string or object, or a tag being written);
 * - `inside_thinking`: the text stops inside `<thinking>`, which is `truncated` only when no
 *   plan came before it.
 */
export type PlanEnding = { kind: 'complete' } | { kind: 'truncated' | 'inside_thinking'; diagnostic: Diagnostic };

const FIX = 'it was probably cut off at the token limit: raise max_tokens or ask for a shorter plan';
const COMPLETE: PlanEnding = { kind: 'complete' };
const THINKING = new Set(['thinking', 'think']);
/** A tag begun and not finished at the very end: `<fro`, `</agen` (looked for in the last characters only). */
const PARTIAL_TAG_AT_END = /<\/?([A-Za-z_][A-Za-z0-9_.:-]*)\s*$/;
const TAIL_CHARS = 128;
const NO_STOP: ReadonlySet<string> = new Set();

const truncated = (message: string): PlanEnding => ({ kind: 'truncated', diagnostic: planDiagnostic('truncated', '', `${message}; ${FIX}`) });

/**
 * How XML plan text ends, given its element tree (after unclosed text tags gave back their
 * structure). `planTags` are the tags plans are written with: an unclosed `<b>` in closing
 * prose, or `x<y`, says nothing about the plan.
 */
export function xmlEnding(tree: XmlTree, text: string, planTags: ReadonlySet<string>): PlanEnding {
  const open = openAtEnd(tree.root);
  const outermost = open[0];
  if (outermost !== undefined && THINKING.has(outermost.name)) {
    return { kind: 'inside_thinking', diagnostic: planDiagnostic('truncated', '', `the output stops inside <thinking>, before any plan; ${FIX}`) };
  }
  if (outermost !== undefined && planTags.has(outermost.name)) {
    return truncated(`the output stops inside ${open.map((element) => `<${element.name}>`).join(' ')}, before the plan is finished`);
  }
  // Text whose last `<` has a `>` after it cannot end inside a tag: the search is skipped.
  const partial = text.lastIndexOf('>') > text.lastIndexOf('<') ? null : PARTIAL_TAG_AT_END.exec(text.slice(-TAIL_CHARS));
  const partialName = partial?.[1]?.toLowerCase();
  if (partial !== null && partialName !== undefined && [...planTags].some((tag) => tag.startsWith(partialName)) && hasPlanElements(tree.root, planTags)) {
    return truncated(`the output stops while writing the tag "${partial[0].trim()}"`);
  }
  return COMPLETE;
}

function hasPlanElements(root: XmlElement, planTags: ReadonlySet<string>): boolean {
  return findElements(root, planTags, NO_STOP).length > 0;
}

/**
 * Whether several agents were read, no edge at all, and nothing follows the last `</agent>` but
 * space or a code fence: the output stopped where the `<edge>` block was to begin (the
 * MAS-Orchestra format always ends with it).
 */
export function endsBeforeEdges(tree: XmlTree, agents: readonly XmlElement[], edgeCount: number): PlanEnding {
  const last = agents.at(-1);
  if (agents.length < 2 || edgeCount > 0 || last === undefined || !last.closed) return COMPLETE;
  const after = tree.source.slice(last.contentEnd).replace(/^<\/agent\s*>/i, '');
  return /^[\s`]*$/.test(after) ? truncated(`the output ends after its ${agents.length} agents with no <edge> block, which a plan of several agents needs`) : COMPLETE;
}

/**
 * How a JSON candidate ends: `truncated` when it stops inside a string or with an object or
 * list still open, else `complete`. One pass over the text.
 */
export function jsonEnding(text: string): PlanEnding {
  let depth = 0;
  let quote: string | undefined;
  let escaped = false;
  let previous = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === quote) quote = undefined;
      continue;
    }
    // As in find-json-candidates: a single quote opens a string only where a key or value can start.
    if (char === '"' || (char === "'" && '{[,:'.includes(previous))) quote = char;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth = Math.max(0, depth - 1);
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') previous = char;
  }
  if (quote !== undefined) return truncated('the JSON stops inside a string');
  return depth > 0 ? truncated(`the JSON stops with ${depth} object(s) or list(s) still open`) : COMPLETE;
}
