import type { ChatMessage, Dom } from '../core/index.js';
import { ORCHESTRATOR_PROMPTS } from './prompt-templates.js';

/** What the simulated orchestrator reads from a plan request. */
export interface OrchestratorPromptView {
  /** The task's question. */
  question: string;
  /** The format the instructions ask for, when they say. */
  format?: 'json' | 'xml';
  /** The DoM the instructions impose, when they do (`Degree of MAS: low.`). */
  dom?: Dom;
}

/** `writeOrchestratorMessages` writes the task as `Task:\n<question>\n\nWrite the plan.` (ORCHESTRATOR_PROMPTS). */
const TASK_PREFIX = ORCHESTRATOR_PROMPTS.taskHeader;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The closing line, its final `.` optional. */
const TASK_SUFFIX = new RegExp(`\\n\\s*${escapeRegExp(ORCHESTRATOR_PROMPTS.writePlan.replace(/\.$/, ''))}\\.?\\s*$`);
const DOM_MARKER = ORCHESTRATOR_PROMPTS.domMarker;
const FORMAT_MARKERS = ORCHESTRATOR_PROMPTS.formatMarkers;

/**
 * The reader half of the orchestrator prompt codec: reads the question, requested format and DoM
 * from orchestrator messages, as `writeOrchestratorMessages` (orchestrator-prompt.ts) lays them
 * out. Tolerant: without the
 * `Task:` wrapper the whole last user message is the question, so prompts written by other
 * clients still work. String searches rather than regexes over the long developer prompt:
 * this runs once per simulated plan.
 */
export function readOrchestratorPrompt(messages: readonly ChatMessage[]): OrchestratorPromptView {
  let user: ChatMessage | undefined;
  for (let index = messages.length - 1; index >= 0 && !user; index--) if (messages[index]?.role === 'user') user = messages[index];
  let content = (user?.content ?? '').trim();
  if (content.startsWith(TASK_PREFIX)) content = content.slice(TASK_PREFIX.length).replace(TASK_SUFFIX, '');
  const view: OrchestratorPromptView = { question: content.trim() };
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'developer') continue;
    const text = message.content;
    if (text.includes(FORMAT_MARKERS.xml)) view.format = 'xml';
    // `Output format: JSON` is accepted too, from prompts written by other clients.
    else if (view.format === undefined && (text.includes(FORMAT_MARKERS.json) || text.includes('Output format: JSON'))) view.format = 'json';
    const domAt = text.indexOf(DOM_MARKER);
    if (domAt >= 0) {
      const dom = /^(low|high)\b/.exec(text.slice(domAt + DOM_MARKER.length, domAt + DOM_MARKER.length + 5))?.[1];
      if (dom === 'low' || dom === 'high') view.dom = dom;
    }
  }
  return view;
}
