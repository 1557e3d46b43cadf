import type { Rng } from '../../core/index.js';

/** Block descriptions an orchestrator writes beside each agent (`agent_description`). */
export const AGENT_DESCRIPTIONS: Readonly<Record<string, readonly string[]>> = {
  cot: ['Works the sub-task step by step.', 'Reasons through this part carefully and answers.'],
  sc: ['Solves the sub-task several times and keeps the majority answer.', 'Samples independent solutions and votes.'],
  reflexion: ['Answers, then critiques and refines its answer.', 'Drafts an answer and checks it before committing.'],
  debate: ['Several roles argue the sub-task and settle on an answer.', 'Agents with different views debate the answer.'],
  search: ['Looks the needed facts up in the corpus and answers from them.', 'Searches for the fact this step needs.'],
};

/** Roles debate nodes draw from. */
export const DEBATE_ROLES = ['Mathematician', 'Skeptic', 'Verifier', 'Analyst', 'Fact-checker', 'Researcher', 'Historian', 'Teacher'] as const;

/** Names of the blocks as MAS-Orchestra's XML format writes them. */
export const XML_AGENT_NAMES: Readonly<Record<string, string>> = {
  cot: 'CoTAgent',
  sc: 'SCAgent',
  reflexion: 'ReflexionAgent',
  debate: 'DebateAgent',
  search: 'SearchAgent',
};

/** Input of the verifier node that follows a whole-question solver. */
export function verifierInput(question: string, solverRef: string): string {
  return `Question: ${question.trim()}\nA first solution gave the answer ${solverRef}. Check that solution step by step and give the correct final answer.`;
}

export interface ThinkingFacts {
  dom: 'low' | 'high';
  block?: string;
  granularity?: string;
  nodeCount: number;
  searchFirst?: boolean;
}

/** A short `thinking` text consistent with the plan's choices. */
export function thinkingText(facts: ThinkingFacts, rng: Rng): string {
  if (facts.dom === 'low') {
    if (facts.block === 'direct') return rng.pick(['This is simple enough to answer directly.', 'No agents are needed; I can answer this myself.']);
    return rng.pick([`One ${facts.block} agent on the whole question should be enough.`, `A single ${facts.block} agent can handle this question.`]);
  }
  const search = facts.searchFirst ? ' Each part needs a fact, so every part is looked up with search.' : '';
  if (facts.granularity === 'whole') return `I will solve the question in one go and have a second agent verify the answer.${search}`;
  const how = facts.granularity === 'steps' ? 'one node per step' : 'one node per independent part';
  return rng.pick([`The question chains several parts; I split it into ${facts.nodeCount} sub-tasks, ${how}.${search}`, `Decomposing into ${facts.nodeCount} sub-tasks (${how}) keeps each call short.${search}`]);
}
