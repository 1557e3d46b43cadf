/**
 * The decisions of the simulated orchestrator. Each head is a categorical choice with logits
 * `W_head · features`; only the heads a plan actually consults are drawn (see `sample-plan.ts`),
 * so a decision list is the exact set of choices whose log-probabilities sum to the plan's.
 */
export const POLICY_HEADS = {
  /** Degree of MAS: one agent or a direct answer, or a graph of agents. */
  dom: ['low', 'high'],
  /** DoM low: answer directly or delegate the whole question to one block. */
  block: ['direct', 'cot', 'sc', 'reflexion', 'debate', 'search'],
  /** DoM high: how finely the question is split (`whole` = one solver node plus a verifier node). */
  granularity: ['steps', 'components', 'whole'],
  /** DoM high: the block of every non-final sub-question node (one shared choice per plan). */
  nodeBlock: ['cot', 'sc', 'reflexion', 'debate', 'search'],
  /** DoM high: the block of the node whose output is the answer. */
  finalBlock: ['cot', 'sc', 'reflexion', 'debate', 'search'],
  /** DoM high: every sub-question (each hop of a chain) is answered by a search node. */
  searchFirst: ['no', 'yes'],
  /** Self-consistency samples, shared by every sc node. */
  samples: ['3', '5', '8'],
  /** Reflexion's maximum rounds and debate's rounds, shared by every such node. */
  rounds: ['1', '2', '3', '5'],
  /** Debate roles per debate node. */
  roles: ['2', '3'],
  /** Sampling temperature of every node. */
  temperature: ['0.3', '0.7', '1.0'],
} as const satisfies Record<string, readonly string[]>;

export type HeadName = keyof typeof POLICY_HEADS;
export type HeadChoice<Head extends HeadName> = (typeof POLICY_HEADS)[Head][number];

/** Heads in a fixed order: the layout of checkpoints and gradients. */
export const HEAD_NAMES = Object.keys(POLICY_HEADS) as HeadName[];

/** Number of choices of a head. */
export function headSize(head: HeadName): number {
  return POLICY_HEADS[head].length;
}

/** Index of a named choice of a head. */
export function choiceIndex<Head extends HeadName>(head: Head, choice: HeadChoice<Head>): number {
  return (POLICY_HEADS[head] as readonly string[]).indexOf(choice);
}
