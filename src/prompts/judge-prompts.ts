/**
 * Prompts of the two judge baselines of Best-of-N (issue 6), and the reading of their replies:
 * the writer half of the judge prompt codec. The reader half, `readJudgePrompt`
 * (read-judge-prompt.ts), is what the simulated judge (`sim/judge/`) uses to read these prompts
 * back; judge-prompts.test.ts checks that what is written is read back.
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
 * The wording is the prompt template set's (JUDGE_PROMPTS).
 */
import { type ChatMessage, type Episode, ModelBehaviorError } from '../core/index.js';
import { BLOCK_PROMPTS, JUDGE_PROMPTS } from './prompt-templates.js';

export const TRAJECTORY_JUDGE_HEADER = JUDGE_PROMPTS.trajectoryHeader;
export const PLAN_JUDGE_HEADER = JUDGE_PROMPTS.planHeader;
/** Bound on one node's output quoted to the trajectory judge, so prompts grow linearly with nodes. */
export const MAX_OUTPUT_CHARS = 600;


/** Indents every line of `text` by `spaces` spaces. */
export function indent(text: string, spaces = 2): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

function tail(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${BLOCK_PROMPTS.cutStart}${text.slice(text.length - maxChars)}`;
}

function header(kind: string, question: string, count: number): string[] {
  return [`${kind}\n${JUDGE_PROMPTS.candidatesHeader}${count}`, `${JUDGE_PROMPTS.questionHeader}\n${indent(question.trim())}`];
}

function trajectoryBlock(episode: Episode, canonicalPlan: string, position: number): string {
  const none = JUDGE_PROMPTS.none;
  const lines = [JUDGE_PROMPTS.candidateHeader(position), JUDGE_PROMPTS.candidatePlanHeader, indent(canonicalPlan), JUDGE_PROMPTS.outputsHeader];
  if (episode.nodes.length === 0) lines.push(indent(none));
  for (const node of episode.nodes) {
    lines.push(`  [${node.nodeId}] ${node.agent} (${node.status}): answer ${node.answer ?? none}`);
    if (node.output !== undefined && node.output.trim() !== '') lines.push(indent(tail(node.output.trim(), MAX_OUTPUT_CHARS), 4));
  }
  lines.push(`${JUDGE_PROMPTS.finalAnswerPrefix}${oneLine(episode.finalAnswer) || none}`, `${JUDGE_PROMPTS.statusPrefix}${episode.status}`);
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
  const instructions = `${JUDGE_PROMPTS.instructionsHeader}\n${indent(JUDGE_PROMPTS.instructions.trajectories(episodes.length))}`;
  return [
    { role: 'system', content: JUDGE_PROMPTS.systems.trajectories },
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
  const blocks = canonicalPlans.map((plan, index) => `${JUDGE_PROMPTS.candidateHeader(index + 1)}\n${indent(plan)}`);
  const instructions = `${JUDGE_PROMPTS.instructionsHeader}\n${indent(JUDGE_PROMPTS.instructions.plans(canonicalPlans.length))}`;
  return [
    { role: 'system', content: JUDGE_PROMPTS.systems.plans },
    { role: 'user', content: [...header(PLAN_JUDGE_HEADER, question, canonicalPlans.length), ...blocks, instructions].join('\n\n') },
  ];
}

/** `<choice>k</choice>` for the 0-based candidate `index`: what `parseJudgeChoice` reads. */
export function choiceTag(index: number): string {
  return `<choice>${index + 1}</choice>`;
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
