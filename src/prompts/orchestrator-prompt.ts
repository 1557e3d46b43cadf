import type { ChatMessage, Dom } from '../core/index.js';
import { ORCHESTRATOR_PROMPTS } from './prompt-templates.js';

/** What an orchestrator prompt carries besides the fixed wording: the parts `plan/` builds from its block catalogue. */
export interface OrchestratorPromptParts {
  /** The available blocks, one per line, with their params and defaults (plan/ `describeBlocks`). */
  blocks: string;
  /** Plan format asked for. */
  format: 'json' | 'xml';
  /** DoM asked for; `auto` lets the orchestrator choose. */
  dom: Dom | 'auto';
  /** The worked example plan in the asked format, shown unless the DoM is `low`. */
  example: string;
}

const TEMPLATES = ORCHESTRATOR_PROMPTS;

/**
 * The writer half of the orchestrator prompt codec: a system message with the orchestrator's
 * role, a developer message with the blocks, the graph rules, the DoM rule and the format (with
 * the worked example and, unless the DoM is `high`, the direct-answer form), and a user message
 * `Task:\n<question>\n\nWrite the plan.`. The developer message does not depend on the task, so
 * servers can cache the prefix. The reader half is `readOrchestratorPrompt`
 * (read-orchestrator-prompt.ts); orchestrator-prompt.test.ts checks that what is written is read
 * back.
 *
 * @example
 * writeOrchestratorMessages('What is 17 * 23?', { blocks, format: 'json', dom: 'auto', example })
 */
export function writeOrchestratorMessages(question: string, parts: OrchestratorPromptParts): ChatMessage[] {
  const { blocks, format, dom, example } = parts;
  const formatLines: string[] = [format === 'json' ? TEMPLATES.jsonFormat : TEMPLATES.xmlFormat];
  if (dom !== 'low') {
    formatLines.push(TEMPLATES.exampleIntro(TEMPLATES.exampleQuestion));
    formatLines.push(...(format === 'json' ? ['```json', example, '```'] : [example]));
  }
  if (dom !== 'high') formatLines.push(format === 'json' ? TEMPLATES.jsonDirectAnswer : TEMPLATES.xmlDirectAnswer);
  const developer = [TEMPLATES.blocksHeader, blocks, '', TEMPLATES.graphRules, '', TEMPLATES.domRules[dom], '', formatLines.join('\n')].join('\n');
  return [
    { role: 'system', content: TEMPLATES.system },
    { role: 'developer', content: developer },
    { role: 'user', content: `${TEMPLATES.taskHeader}\n${question.trim()}\n\n${TEMPLATES.writePlan}` },
  ];
}
