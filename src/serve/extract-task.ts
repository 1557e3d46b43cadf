import { HttpError, UserError } from '../core/index.js';
import { lastUserTurn } from './chat-templates.js';

/**
 * Where `/get_reward` reads each query's task text from:
 * - `auto`: from the prompt: orchrm's own orchestrator prompt (`Task:\n<task>\n\nWrite the
 *   plan.`, plain or inside a chat template), else the last user turn of a rendered chat
 *   template, else the whole prompt;
 * - `prompt`: the prompt as sent, verbatim (what orchrm's own OpenRLHF client sends);
 * - `label`: the query's `labels` entry (OpenRLHF's `--data.label_key` column holding the task).
 */
export const TASK_SOURCES = ['auto', 'prompt', 'label'] as const;
export type TaskSource = (typeof TASK_SOURCES)[number];

/** Which rule found the task; counted in `orchrm_task_extractions_total{rule}`. */
export const TASK_RULES = ['orchrm-prompt', 'chat-user-turn', 'whole-prompt', 'prompt', 'label', 'pattern', 'no-prompt'] as const;
export type TaskRule = (typeof TASK_RULES)[number];

export interface ExtractedTask {
  task: string;
  rule: TaskRule;
  /** The chat template the prompt was rendered with, when one was recognised. */
  template?: string;
}

export interface TaskExtractorOptions {
  /** @default 'auto' */
  source?: TaskSource;
  /**
   * A regular expression (JavaScript syntax, `s` flag: `.` matches newlines) run on each
   * prompt; the task is its named group `task`, else its first group, else the whole match.
   * A prompt it does not match is refused. Replaces `source` for prompts.
   */
  pattern?: string;
}

/** Reads one query's task: `(prompt, label, index) -> task`; throws an HttpError 400 naming the entry it cannot read. */
export type TaskExtractor = (prompt: string, label: unknown, index: number) => ExtractedTask;

// What `buildOrchestratorMessages` (src/plan/orchestrator-prompts.ts) writes as its user message;
// extract-task.test.ts builds real prompts with it, so a change there fails here.
const ORCHRM_TASK_START = 'Task:\n';
const ORCHRM_TASK_END = '\n\nWrite the plan.';

/**
 * The task inside orchrm's own orchestrator user message, wherever it sits in `text`: the
 * text between the last `Task:` line (or `Task:` right after a template's special token) and
 * the `Write the plan.` line after it.
 *
 * @example
 * orchrmPromptTask('...Task:\nWhat is 2+2?\n\nWrite the plan.') // 'What is 2+2?'
 */
export function orchrmPromptTask(text: string): string | undefined {
  const end = text.lastIndexOf(ORCHRM_TASK_END);
  if (end < 0) return undefined;
  const start = text.lastIndexOf(ORCHRM_TASK_START, end);
  // `Task:` opens a line, the text, or a turn, so a task that quotes "Task:" mid-sentence is not cut.
  if (start < 0 || !opensTurnOrLine(text, start)) return undefined;
  return text.slice(start + ORCHRM_TASK_START.length, end).trim();
}

/**
 * A special token of a chat template, at the end of the text: `<|message|>` (gpt-oss),
 * `<|USER_TOKEN|>` (Command R), `<|im_sep|>` (Phi-4), `<|end_of_role|>` (Granite), `<start_of_turn>`.
 */
const TRAILING_SPECIAL_TOKEN = /<\|?[^\s<>|]{1,48}\|?>$/;

/**
 * Whether `index` starts the text or a line, or directly follows a special token: templates
 * that put the user's text straight after the turn header render `<|message|>Task:` (issue 24:
 * those prompts were read whole, and 16 of 200 orderings flipped). Looks at most 50 characters
 * back, so the whole check is linear in the prompt.
 */
function opensTurnOrLine(text: string, index: number): boolean {
  if (index === 0) return true;
  const previous = text[index - 1] ?? '';
  if (/\s/.test(previous)) return true;
  return previous === '>' && TRAILING_SPECIAL_TOKEN.test(text.slice(Math.max(0, index - 50), index));
}

/**
 * Reads the task of an OpenRLHF query from its prompt (or label), so a policy trained on
 * orchrm's orchestrator prompt is rewarded for the task, not for the 4k characters of
 * instructions around it. Throws a UserError for an invalid `pattern` (at startup).
 *
 * @example
 * const extract = createTaskExtractor({ source: 'auto' });
 * extract('<|im_start|>user\nTask:\nWhat is 2+2?\n\nWrite the plan.<|im_end|>\n<|im_start|>assistant\n', '', 0)
 * // { task: 'What is 2+2?', rule: 'orchrm-prompt', template: 'chatml' }
 */
export function createTaskExtractor(options: TaskExtractorOptions = {}): TaskExtractor {
  const { source = 'auto', pattern } = options;
  let regex: RegExp | undefined;
  if (pattern !== undefined) {
    try {
      regex = new RegExp(pattern, 's');
    } catch (error) {
      throw new UserError(`--task-pattern is not a valid regular expression (${(error as Error).message}); give JavaScript regex syntax, e.g. "Question: (?<task>.*?)\\n"`);
    }
  }
  return (prompt, label, index) => {
    if (source === 'label') {
      if (typeof label !== 'string' || label === '') {
        throw new HttpError(400, 'task_not_found', `labels[${index}] must hold the task text (the server reads tasks from labels); set OpenRLHF's --data.label_key to the dataset column with the task`, {
          field: `labels[${index}]`,
        });
      }
      return { task: label, rule: 'label' };
    }
    if (regex) {
      const match = regex.exec(prompt);
      if (!match) {
        throw new HttpError(400, 'task_not_found', `prompts[${index}] does not match the server's --task-pattern ${JSON.stringify(pattern)}; fix the pattern or the prompt template`, {
          field: `prompts[${index}]`,
        });
      }
      return { task: (match.groups?.task ?? match[1] ?? match[0]).trim(), rule: 'pattern' };
    }
    if (source === 'prompt') return { task: prompt, rule: 'prompt' };
    const turn = lastUserTurn(prompt);
    const orchrm = orchrmPromptTask(turn?.content ?? prompt);
    const template = turn ? { template: turn.template } : {};
    if (orchrm !== undefined) return { task: orchrm, rule: 'orchrm-prompt', ...template };
    if (turn) return { task: turn.content, rule: 'chat-user-turn', ...template };
    return { task: prompt, rule: 'whole-prompt' };
  };
}
