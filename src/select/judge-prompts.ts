/**
 * Prompts of the two judge baselines of Best-of-N (issue 6), and the reading of their replies.
 *
 * Layout (one user message after a system message), every free text indented by two spaces so
 * that no line of a plan, an output or a question can be mistaken for a header:
 *
 * ```
 * Judge: trajectories            <- or `Judge: plans`; first line, identifies the prompt
 * Candidates: <N>
 *
 * Question:
 *   <task question>
 *
 * Candidate 1:
 * Plan:                          <- trajectory judge; the plan judge shows the plan lines only
 *   <canonical plan>
 * Intermediate outputs:
 *   [A] cot (ok): answer <answer>
 *     <last MAX_OUTPUT_CHARS of the node's output>
 * Final answer: <answer or (none)>
 * Status: <episode status>
 *
 * Candidate 2:
 * ...
 *
 * Instructions:
 *   ... reply with <choice>k</choice>
 * ```
 *
 * The simulated judge (src/sim/judge/) reads prompts by exactly these headers.
 */
import type { Episode } from '../core/episode.js';
import { ModelBehaviorError } from '../core/errors.js';
import type { ChatMessage } from '../core/llm-call.js';

export const TRAJECTORY_JUDGE_HEADER = 'Judge: trajectories';
export const PLAN_JUDGE_HEADER = 'Judge: plans';
/** Bound on one node's output quoted to the trajectory judge, so prompts grow linearly with nodes. */
export const MAX_OUTPUT_CHARS = 600;

const TRAJECTORY_SYSTEM =
  'You are an expert judge. Several multi-agent systems attempted the same question; for each you see its plan, the intermediate outputs of its agents and its final answer. Decide which candidate reached the correct answer.';
const PLAN_SYSTEM =
  'You are an expert judge of multi-agent orchestration plans. Several plans were written for the same question and none has run yet. Decide which plan is most likely to reach the correct answer when executed.';

/** Indents every line of `text` by `spaces` spaces. */
export function indent(text: string, spaces = 2): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

function tail(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `[...] ${text.slice(text.length - maxChars)}`;
}

function header(kind: string, question: string, count: number): string[] {
  return [`${kind}\nCandidates: ${count}`, `Question:\n${indent(question.trim())}`];
}

function trajectoryBlock(episode: Episode, canonicalPlan: string, position: number): string {
  const lines = [`Candidate ${position}:`, 'Plan:', indent(canonicalPlan), 'Intermediate outputs:'];
  if (episode.nodes.length === 0) lines.push('  (none)');
  for (const node of episode.nodes) {
    lines.push(`  [${node.nodeId}] ${node.agent} (${node.status}): answer ${node.answer ?? '(none)'}`);
    if (node.output !== undefined && node.output.trim() !== '') lines.push(indent(tail(node.output.trim(), MAX_OUTPUT_CHARS), 4));
  }
  lines.push(`Final answer: ${oneLine(episode.finalAnswer) || '(none)'}`, `Status: ${episode.status}`);
  return lines.join('\n');
}

function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The trajectory judge's prompt: every candidate's canonical plan, its agents' intermediate
 * outputs and its final answer.
 *
 * @example
 * buildTrajectoryJudgeMessages(task.question, episodes, canonicalPlans)
 */
export function buildTrajectoryJudgeMessages(question: string, episodes: readonly Episode[], canonicalPlans: readonly string[]): ChatMessage[] {
  const blocks = episodes.map((episode, index) => trajectoryBlock(episode, canonicalPlans[index] ?? '', index + 1));
  const instructions = `Instructions:\n${indent(
    `Check each candidate's reasoning and answer against the question. Reply with a short justification, then the number of the best candidate (1 to ${episodes.length}) inside <choice></choice> tags.`,
  )}`;
  return [
    { role: 'system', content: TRAJECTORY_SYSTEM },
    { role: 'user', content: [...header(TRAJECTORY_JUDGE_HEADER, question, episodes.length), ...blocks, instructions].join('\n\n') },
  ];
}

/**
 * The plan judge's prompt: the candidates' canonical plans only (nothing has executed).
 *
 * @example
 * buildPlanJudgeMessages(task.question, canonicalPlans)
 */
export function buildPlanJudgeMessages(question: string, canonicalPlans: readonly string[]): ChatMessage[] {
  const blocks = canonicalPlans.map((plan, index) => `Candidate ${index + 1}:\n${indent(plan)}`);
  const instructions = `Instructions:\n${indent(
    `Judge how likely each plan is to reach the correct answer when its agents run. Reply with a short justification, then the number of the best plan (1 to ${canonicalPlans.length}) inside <choice></choice> tags.`,
  )}`;
  return [
    { role: 'system', content: PLAN_SYSTEM },
    { role: 'user', content: [...header(PLAN_JUDGE_HEADER, question, canonicalPlans.length), ...blocks, instructions].join('\n\n') },
  ];
}

/**
 * The candidate a judge chose: the last `<choice>k</choice>` of its reply, 1-based, returned
 * 0-based. Throws ModelBehaviorError when the reply has none or names no candidate.
 *
 * @example
 * parseJudgeChoice('Candidate 2 checks out.\n<choice>2</choice>', 3) // 1
 */
export function parseJudgeChoice(reply: string, candidates: number): number {
  const matches = [...reply.matchAll(/<choice>\s*(?:candidate\s*)?(\d+)\s*<\/choice>/gi)];
  const last = matches.at(-1);
  if (last === undefined) throw new ModelBehaviorError(`judge reply has no <choice>k</choice>: ${JSON.stringify(reply.slice(0, 200))}`);
  const choice = Number(last[1]);
  if (choice < 1 || choice > candidates) {
    throw new ModelBehaviorError(`judge chose candidate ${choice}, but there are only ${candidates} (1 to ${candidates})`);
  }
  return choice - 1;
}
