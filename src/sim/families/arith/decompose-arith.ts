import type { Granularity, SubQuestion, TextDecomposition } from '../family.js';
import type { ArithGraph } from './arith-graph.js';
import type { ParsedArithQuestion } from './parse-arith-question.js';
import { planSteps } from './plan-steps.js';
import { renderFind, renderKnown } from './render-sentences.js';

/** What one sub-question asks, before ids are turned into reference text. */
interface Ask {
  id: string;
  /** Quantities asked for, in order. */
  targets: string[];
  /** Quantity handed over as known -> the sub-question that works it out. */
  known: [quantity: string, from: string][];
}

function toSubQuestion(ask: Ask): SubQuestion {
  return {
    id: ask.id,
    dependsOn: ask.known.map(([, from]) => from),
    render: (refs) => [renderFind(ask.targets), ...ask.known.map(([quantity, from]) => renderKnown(quantity, refs[from] ?? `\${${from}}`))].join(' '),
  };
}

/** Everything `id` is computed from (itself included), down to given values. */
function ancestors(graph: ArithGraph, id: string): Set<string> {
  const found = new Set<string>();
  const stack = [id];
  for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
    if (found.has(current)) continue;
    found.add(current);
    const definition = graph.definitions.get(current);
    if (definition !== undefined && definition.kind !== 'given') stack.push(...definition.parents);
  }
  return found;
}

function sharesAny(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  for (const id of right) if (left.has(id)) return true;
  return false;
}

/** The last sub-question: every target of the task, with the quantities `sources` worked out known. */
function finalAsk(graph: ArithGraph, id: string, sources: readonly Ask[]): Ask {
  return { id, targets: graph.targets, known: sources.map((ask) => [ask.targets[0] ?? '', ask.id]) };
}

/** One sub-question per relation on the answer's path, each given its worked-out parents. */
function bySteps(graph: ArithGraph): Ask[] | undefined {
  const { order } = planSteps(graph, graph.targets, new Map());
  if (order.length === 0) return undefined;
  const askOf = new Map<string, Ask>();
  const asks: Ask[] = order.map((quantity, index) => {
    const definition = graph.definitions.get(quantity);
    const parents = definition === undefined || definition.kind === 'given' ? [] : definition.parents;
    const sources = parents.flatMap((parent) => askOf.get(parent) ?? []);
    const ask: Ask = { id: `s${index + 1}`, targets: [quantity], known: sources.map((source) => [source.targets[0] ?? '', source.id]) };
    askOf.set(quantity, ask);
    return ask;
  });
  // Several targets: a last sub-question lists them all, each known from the sub-question that found it.
  if (graph.targets.length > 1) {
    asks.push(finalAsk(graph, `s${asks.length + 1}`, graph.targets.flatMap((target) => askOf.get(target) ?? [])));
  }
  return asks;
}

/**
 * One sub-question per independent component of the main (last) target: its worked-out parents
 * grouped so that groups share no quantity below them. Inside a group, the other asked targets
 * it contains come first, then the group's parents of the main target, each given the earlier
 * ones it builds on. A final sub-question asks the original targets with all of them known.
 */
function byComponents(graph: ArithGraph): Ask[] | undefined {
  const main = graph.targets[graph.targets.length - 1];
  const definition = main === undefined ? undefined : graph.definitions.get(main);
  if (definition === undefined || definition.kind === 'given') return undefined;
  const groups: { tops: string[]; below: Set<string> }[] = [];
  for (const parent of definition.parents) {
    if (graph.definitions.get(parent)?.kind === 'given') continue;
    const below = ancestors(graph, parent);
    const tops = [parent];
    // Parents sharing anything below them belong to one component: merge their groups.
    for (let index = groups.length - 1; index >= 0; index--) {
      const group = groups[index];
      if (group === undefined || !sharesAny(group.below, below)) continue;
      tops.unshift(...group.tops);
      for (const id of group.below) below.add(id);
      groups.splice(index, 1);
    }
    groups.push({ tops, below });
  }
  if (groups.length < 2) return undefined;
  const asks: Ask[] = [];
  for (const group of groups) {
    const inGroup = graph.targets.filter((target) => target !== main && group.below.has(target));
    const asked: Ask[] = [];
    for (const quantity of [...inGroup, ...group.tops.filter((top) => !inGroup.includes(top))]) {
      const upstream = ancestors(graph, quantity);
      const known = asked.filter((ask) => ask.targets[0] !== undefined && upstream.has(ask.targets[0]));
      const ask: Ask = { id: `s${asks.length + 1}`, targets: [quantity], known: known.map((ask) => [ask.targets[0] ?? '', ask.id]) };
      asked.push(ask);
      asks.push(ask);
    }
  }
  asks.push(finalAsk(graph, `s${asks.length + 1}`, asks));
  return asks;
}

/**
 * Proposes sub-questions for an arith question, as a careful reader would from the text alone:
 * - `whole`: the question itself.
 * - `steps`: one "Find <quantity>." per relation on the answer's path (never a distractor: the
 *   reader walks back from the asked quantities), parents first, each with a
 *   "Known: <parent> is ${parent's sub-question}." clause per worked-out parent; the last one is
 *   the asked quantity. With several asked quantities a final sub-question lists them all
 *   ("Find A, then B. Give the answers ...") with each one known, so the task's answer is a
 *   node's answer.
 * - `components`: one sub-question per independent part of the main (last) asked quantity,
 *   then a combine asking the original targets with every part known.
 * When the text offers no split at a granularity (a single component, a target that is a given
 * value), the question is asked whole.
 */
export function decomposeArith(parsed: ParsedArithQuestion, question: string, granularity: Granularity): TextDecomposition {
  const asks = granularity === 'steps' ? bySteps(parsed.graph) : granularity === 'components' ? byComponents(parsed.graph) : undefined;
  if (asks === undefined) return { subQuestions: [{ id: 's1', dependsOn: [], render: () => question }], finalId: 's1' };
  const last = asks[asks.length - 1];
  return { subQuestions: asks.map(toSubQuestion), finalId: last?.id ?? 's1' };
}
