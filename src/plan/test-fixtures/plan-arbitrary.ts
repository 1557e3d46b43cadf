import fc from 'fast-check';
import type { Plan, PlanEdge, PlanNode } from '../../core/plan.js';

/** Text with the characters that stress the renderer and parsers: markup, entities, braces, spaces. */
const TRICKY_PIECES = ['<', '>', '&', '&lt;', '&amp;', ']]>', '<!--', '<b>', '</agent_input>', '{', '}', '"', "'", '\n', '  ', '\t', '\u00a0', 'é', '😀', '\\'];
export const trickyText = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom(...TRICKY_PIECES)), { maxLength: 8 })
  // `$` is left out so that no text forms a `${id}` reference by accident.
  .map((pieces) => pieces.join('').replaceAll('$', ''));

const nodeId = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,6}$/);
const agentName = fc.constantFrom('cot', 'CoTAgent', 'sc', 'SCAgent', 'reflexion', 'ReflexionAgent', 'debate', 'DebateAgent', 'search', 'WebSearchAgent');
const temperature = fc.integer({ min: 0, max: 200 }).map((value) => value / 100);
const modelName = fc.string({ minLength: 1, maxLength: 12 });

function paramsFor(agent: string): fc.Arbitrary<Record<string, unknown>> {
  const common = { temperature, model: modelName, maxTokens: fc.integer({ min: 1, max: 32_768 }) };
  const name = agent.toLowerCase();
  if (name.startsWith('sc')) return fc.record({ ...common, samples: fc.integer({ min: 1, max: 20 }) }, { requiredKeys: [] });
  if (name.startsWith('reflexion')) return fc.record({ ...common, maxRounds: fc.integer({ min: 0, max: 10 }) }, { requiredKeys: [] });
  if (name.startsWith('debate')) {
    const roles = fc.array(fc.string({ minLength: 1, maxLength: 10 }), { minLength: 2, maxLength: 8 });
    return fc.record({ ...common, roles, rounds: fc.integer({ min: 1, max: 10 }) }, { requiredKeys: ['roles'] });
  }
  if (name.includes('search')) {
    return fc.record({ ...common, topK: fc.integer({ min: 1, max: 50 }), maxIterations: fc.integer({ min: 1, max: 10 }) }, { requiredKeys: [] });
  }
  return fc.record(common, { requiredKeys: [] });
}

/** Input text that references exactly `sources`, in a random order, around tricky text. */
function inputFor(sources: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.shuffledSubarray([...sources], { minLength: sources.length, maxLength: sources.length }), fc.array(trickyText, { minLength: sources.length + 1, maxLength: sources.length + 1 }))
    .map(([order, texts]) => texts.map((text, index) => (index < order.length ? `${text} \${${order[index]}}` : text)).join(''));
}

/**
 * Random valid plans: a DAG whose nodes all lead to the last one, inputs that reference
 * exactly their incoming edges, block params within their schemas, aliases for agent names,
 * random node and edge order, and sometimes a repeated edge.
 */
export const validPlan: fc.Arbitrary<Plan> = fc.oneof(
  { weight: 1, arbitrary: directAnswerPlan() },
  { weight: 5, arbitrary: graphPlan() },
);

function directAnswerPlan(): fc.Arbitrary<Plan> {
  return fc.record({ dom: fc.constant('low' as const), thinking: trickyText, directAnswer: trickyText.filter((text) => text.trim() !== '') }).map(
    (plan): Plan => ({ ...plan, nodes: [], edges: [] }),
  );
}

function graphPlan(): fc.Arbitrary<Plan> {
  return fc.uniqueArray(nodeId, { minLength: 1, maxLength: 6 }).chain((ids) => {
    const last = ids.length - 1;
    const targets = ids.map((_, index) =>
      index === last ? fc.constant<number[]>([]) : fc.uniqueArray(fc.integer({ min: index + 1, max: last }), { minLength: 1, maxLength: last - index }),
    );
    return fc.tuple(...targets).chain((targetLists) => {
      const edges: PlanEdge[] = targetLists.flatMap((list, from) => list.map((to) => ({ from: ids[from]!, to: ids[to]! })));
      const nodeArbitraries = ids.map((id) =>
        agentName.chain((agent) =>
          fc.record({
            agent: fc.constant(agent),
            input: inputFor(edges.filter((edge) => edge.to === id).map((edge) => edge.from)),
            params: paramsFor(agent),
            description: fc.option(trickyText, { nil: undefined }),
          }).map((fields): PlanNode => ({ id, ...fields })),
        ),
      );
      return fc.record({
        nodes: fc.tuple(...nodeArbitraries).chain((nodes) => fc.shuffledSubarray(nodes, { minLength: nodes.length, maxLength: nodes.length })),
        edges: fc.shuffledSubarray(edges, { minLength: edges.length, maxLength: edges.length }),
        repeatEdge: fc.boolean(),
        dom: ids.length === 1 ? fc.constantFrom('low' as const, 'high' as const) : fc.constant('high' as const),
        thinking: fc.option(trickyText, { nil: undefined }),
        namesAnswer: fc.boolean(),
      });
    }).map(({ nodes, edges, repeatEdge, dom, thinking, namesAnswer }): Plan => {
      const cleanNodes = nodes.map(({ description, ...node }) => (description === undefined ? node : { ...node, description }));
      const plan: Plan = { dom, nodes: cleanNodes, edges: repeatEdge && edges.length > 0 ? [...edges, edges[0]!] : edges };
      if (thinking !== undefined) plan.thinking = thinking;
      if (namesAnswer) plan.answer = ids[last];
      return plan;
    });
  });
}
