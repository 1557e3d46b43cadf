import type { ChatMessage } from '../core/index.js';
import { JUDGE_PROMPTS } from './prompt-templates.js';

const { trajectoryHeader: TRAJECTORY_JUDGE_HEADER, planHeader: PLAN_JUDGE_HEADER } = JUDGE_PROMPTS;

/** One candidate as the simulated judge reads it. */
export interface JudgeCandidate {
  /** The plan text shown (canonical XML, or `INVALID PLAN: ...`). */
  plan: string;
  /** Trajectory prompts: the candidate's final answer ('' when it shows `(none)`). */
  finalAnswer: string;
}

export interface ParsedJudgePrompt {
  kind: 'trajectories' | 'plans';
  question: string;
  candidates: JudgeCandidate[];
}

/** Whether the request is a judge prompt written by judge-prompts.ts. */
export function isJudgePrompt(messages: readonly ChatMessage[]): boolean {
  const content = lastUserContent(messages);
  return content.startsWith(TRAJECTORY_JUDGE_HEADER) || content.startsWith(PLAN_JUDGE_HEADER);
}

/**
 * The reader half of the judge prompt codec: reads a judge prompt, as the writers of
 * judge-prompts.ts lay it out, by the headers of the prompt template set (JUDGE_PROMPTS): the question, and per
 * candidate its plan and (trajectory prompts) its final answer. Every free text there is
 * indented by two spaces, so a line at column 0 is always a header. Undefined when the last
 * user message is not a judge prompt.
 */
export function readJudgePrompt(messages: readonly ChatMessage[]): ParsedJudgePrompt | undefined {
  const content = lastUserContent(messages);
  const kind = content.startsWith(TRAJECTORY_JUDGE_HEADER) ? 'trajectories' : content.startsWith(PLAN_JUDGE_HEADER) ? 'plans' : undefined;
  if (kind === undefined) return undefined;
  const question: string[] = [];
  const candidates: JudgeCandidate[] = [];
  let section: 'none' | 'question' | 'plan' | 'other' = 'none';
  let current: { plan: string[]; finalAnswer: string } | undefined;
  const close = () => {
    if (current !== undefined) candidates.push({ plan: current.plan.join('\n'), finalAnswer: current.finalAnswer });
    current = undefined;
  };
  for (const line of content.split('\n')) {
    if (line.startsWith('  ')) {
      if (section === 'question') question.push(line.slice(2));
      else if (section === 'plan') current?.plan.push(line.slice(2));
      continue;
    }
    if (line === JUDGE_PROMPTS.questionHeader) section = 'question';
    else if (JUDGE_PROMPTS.candidatePattern.test(line)) {
      close();
      current = { plan: [], finalAnswer: '' };
      // Plan prompts show the plan right under the candidate line; trajectory prompts under `Plan:`.
      section = kind === 'plans' ? 'plan' : 'other';
    } else if (line === JUDGE_PROMPTS.candidatePlanHeader && current !== undefined) section = 'plan';
    else if (line.startsWith(JUDGE_PROMPTS.finalAnswerPrefix) && current !== undefined) {
      const answer = line.slice(JUDGE_PROMPTS.finalAnswerPrefix.length).trim();
      current.finalAnswer = answer === JUDGE_PROMPTS.none ? '' : answer;
      section = 'other';
    } else if (line === JUDGE_PROMPTS.instructionsHeader) {
      close();
      section = 'other';
    } else if (line !== '') section = section === 'question' ? 'other' : section === 'plan' ? 'other' : section;
  }
  close();
  return { kind, question: question.join('\n').trim(), candidates };
}

function lastUserContent(messages: readonly ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}
