import type { ChatMessage } from '../../core/llm-call.js';
import type { Dom } from '../../core/plan.js';
import type { PlanTextFormat } from './write-plan-text.js';

/** What the simulated orchestrator reads from a plan request. */
export interface OrchestratorPromptView {
  /** The task's question. */
  question: string;
  /** The format the instructions ask for, when they say. */
  format?: PlanTextFormat;
  /** The DoM the instructions impose, when they do (`Degree of MAS: low.`). */
  dom?: Dom;
}

/** `buildOrchestratorMessages` writes the task as `Task:\n<question>\n\nWrite the plan.` */
const TASK_MESSAGE = /^\s*Task:[ \t]*\n?([\s\S]*?)(?:\n\s*Write the plan\.?)?\s*$/;

/**
 * Reads the question, requested format and DoM from orchestrator messages, as built by
 * `buildOrchestratorMessages` (src/plan/orchestrator-prompts.ts). Tolerant: without the
 * `Task:` wrapper the whole last user message is the question, so prompts written by other
 * clients still work.
 */
export function readOrchestratorPrompt(messages: readonly ChatMessage[]): OrchestratorPromptView {
  const user = [...messages].reverse().find((message) => message.role === 'user');
  const content = user?.content ?? '';
  const question = (TASK_MESSAGE.exec(content)?.[1] ?? content).trim();
  const instructions = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => message.content).join('\n');
  const view: OrchestratorPromptView = { question };
  if (/Output format: XML/i.test(instructions)) view.format = 'xml';
  else if (/Output format: (?:one )?JSON/i.test(instructions)) view.format = 'json';
  const dom = /Degree of MAS: (low|high)\b/i.exec(instructions)?.[1]?.toLowerCase();
  if (dom === 'low' || dom === 'high') view.dom = dom;
  return view;
}
