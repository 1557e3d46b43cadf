import type { Dom, Plan, PlanNode, Rng } from '../../core/index.js';
import type { SimFamily } from '../families/family.js';
import { decomposeQuestion } from './decompose-question.js';
import { decisionLogProb, sampleDecision, type Decision } from './log-linear.js';
import type { PolicyCheckpoint } from './policy-checkpoint.js';
import { POLICY_HEADS, type HeadChoice, type HeadName } from './policy-heads.js';
import { AGENT_DESCRIPTIONS, DEBATE_ROLES, thinkingText, verifierInput } from './plan-wording.js';
import { questionFeatures } from './question-features.js';

/** Answers a question without agents (the environment passes the simulated worker's solver). */
export type AnswerDirectly = (question: string, seed: number) => string;

export interface SamplePlanOptions {
  families: readonly SimFamily[];
  answerDirectly: AnswerDirectly;
  /** A DoM the prompt imposed; the `dom` head is then not drawn. @default drawn */
  dom?: Dom | undefined;
  /**
   * Sampling temperature of the decisions (logits / temperature); 0 is greedy. `logProb` is
   * always under the checkpoint's own distribution (temperature 1), as policy gradients need.
   * @default 1
   */
  temperature?: number | undefined;
}

/** A plan drawn from the policy, with the decisions that made it and their total log-probability. */
export interface SampledPlan {
  decisions: Decision[];
  logProb: number;
  plan: Plan;
}

type Block = HeadChoice<'nodeBlock'>;

/**
 * Draws a plan for a question. Heads are consulted only where they matter, so the decision
 * list is exactly what `logProbOf` scores:
 * - `dom`; low: `block` (`direct` asks `answerDirectly`, else one node on the whole question);
 * - high: `granularity`, then the question is decomposed (first family that answers),
 *   `searchFirst` (yes: every sub-question node is a `search` node, one per hop),
 *   `nodeBlock` for the other non-final nodes (one shared choice per plan), `finalBlock` for
 *   the answer node (`whole` granularity adds a verifier node after the solver);
 * - params shared by the plan's nodes: `samples` when an `sc` node exists, `rounds` for
 *   reflexion/debate, `roles` for debate, `temperature` whenever there is a node.
 * Node ids are A, B, C... in the decomposition's order; edges are exactly the `${id}` refs.
 */
export function samplePlan(question: string, rng: Rng, checkpoint: PolicyCheckpoint, options: SamplePlanOptions): SampledPlan {
  const features = questionFeatures(question);
  const decisionRng = rng.fork('decisions');
  const wordingRng = rng.fork('wording');
  const decisions: Decision[] = [];
  const draw = <Head extends HeadName>(head: Head): HeadChoice<Head> => {
    const decision = sampleDecision(head, features, checkpoint, decisionRng, options.temperature ?? 1);
    decisions.push(decision);
    return POLICY_HEADS[head][decision.choice] as HeadChoice<Head>;
  };

  const dom = options.dom ?? draw('dom');
  let plan: Plan;
  if (dom === 'low') {
    const block = draw('block');
    if (block === 'direct') {
      const directAnswer = options.answerDirectly(question, decisionRng.nextUint32());
      plan = { dom, thinking: thinkingText({ dom, block, nodeCount: 0 }, wordingRng), nodes: [], edges: [], directAnswer };
    } else {
      const nodes = [draftNode('A', block, question.trim(), wordingRng)];
      plan = { dom, thinking: thinkingText({ dom, block, nodeCount: 1 }, wordingRng), nodes, edges: [], answer: 'A' };
    }
  } else {
    const granularity = draw('granularity');
    const decomposition = decomposeQuestion(options.families, question, granularity);
    const searchFirst = draw('searchFirst') === 'yes';
    const subQuestions = decomposition.subQuestions;
    // With a single sub-question and no verifier, no node takes `nodeBlock`, so it is not drawn.
    const hasOtherNodes = granularity === 'whole' || subQuestions.length > 1;
    const nodeBlock: Block = searchFirst ? 'search' : hasOtherNodes ? draw('nodeBlock') : 'cot';
    const finalBlock: Block = searchFirst && granularity !== 'whole' ? 'search' : draw('finalBlock');

    const ids = new Map(subQuestions.map((sub, index) => [sub.id, nodeId(index)]));
    const nodes: PlanNode[] = subQuestions.map((sub) => {
      const refs = Object.fromEntries(sub.dependsOn.map((dependency) => [dependency, `\${${ids.get(dependency) ?? dependency}}`]));
      const isFinal = sub.id === decomposition.finalId && granularity !== 'whole';
      return draftNode(ids.get(sub.id) as string, isFinal ? finalBlock : nodeBlock, sub.render(refs), wordingRng);
    });
    if (granularity === 'whole') {
      const solverId = ids.get(decomposition.finalId) as string;
      nodes.push(draftNode(nodeId(nodes.length), finalBlock, verifierInput(question, `\${${solverId}}`), wordingRng));
    }
    const answer = granularity === 'whole' ? (nodes[nodes.length - 1] as PlanNode).id : (ids.get(decomposition.finalId) as string);
    const thinking = thinkingText({ dom, granularity, nodeCount: nodes.length, searchFirst }, wordingRng);
    plan = { dom, thinking, nodes, edges: edgesFromReferences(nodes), answer };
  }
  setParams(plan.nodes, draw, wordingRng);
  const logProb = decisions.reduce((sum, decision) => sum + decisionLogProb(decision, checkpoint), 0);
  return { decisions, logProb, plan };
}

/** A, B, ..., Z, then N27, N28, ... */
function nodeId(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `N${index + 1}`;
}

function draftNode(id: string, agent: Block, input: string, rng: Rng): PlanNode {
  return { id, agent, input, params: {}, description: rng.pick(AGENT_DESCRIPTIONS[agent] ?? ['Solves the sub-task.']) };
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

/** One edge per distinct `${id}` a node's input uses: edges exist exactly where references do. */
function edgesFromReferences(nodes: readonly PlanNode[]): Plan['edges'] {
  const edges: Plan['edges'] = [];
  for (const node of nodes) {
    const sources = new Set(Array.from(node.input.matchAll(REFERENCE), (match) => match[1] as string));
    for (const source of sources) edges.push({ from: source, to: node.id });
  }
  return edges;
}

type Draw = <Head extends HeadName>(head: Head) => HeadChoice<Head>;

/** Draws the shared params the plan's blocks need and writes them on each node. */
function setParams(nodes: PlanNode[], draw: Draw, rng: Rng): void {
  if (nodes.length === 0) return;
  const uses = (...agents: string[]) => nodes.some((node) => agents.includes(node.agent));
  const samples = uses('sc') ? Number(draw('samples')) : undefined;
  const rounds = uses('reflexion', 'debate') ? Number(draw('rounds')) : undefined;
  const roles = uses('debate') ? rng.shuffle(DEBATE_ROLES).slice(0, Number(draw('roles'))) : undefined;
  const temperature = Number(draw('temperature'));
  for (const node of nodes) {
    if (node.agent === 'sc') node.params = { samples, temperature };
    else if (node.agent === 'reflexion') node.params = { maxRounds: rounds, temperature };
    else if (node.agent === 'debate') node.params = { roles, rounds, temperature };
    else node.params = { temperature };
  }
}
