import type { ChatMessage } from '../core/index.js';
import { BLOCK_PROMPTS, PROMPT_STEPS, type PromptStep } from './prompt-templates.js';
import { readPromptSections, type MessageSections } from './read-prompt-sections.js';
import { readSearchResults, type ShownDocument } from './read-search-results.js';

/** What a block prompt shows about the problem: what the simulated task families read. */
export interface BlockPromptView {
  /** The node's input (`Sub-task:`), after `${id}` substitution. */
  subTask: string;
  /** The task's question (`Original question:`), or the sub-task when the prompt has none. */
  originalQuestion: string;
  /** Documents shown to the model in this conversation (search results), first-seen order. */
  documents: readonly ShownDocument[];
}

/** A debate answer line: `- <role>: <answer>` or `- Round <r>, <role>: <answer>`. */
export interface DebateAnswerLine {
  /** 1-based round; 0 when the line names none (other agents' answers). */
  round: number;
  role: string;
  answer: string;
}

/** Everything the simulated worker reads out of one block call's messages. */
export interface ParsedBlockPrompt {
  /** From the `Step:` line of the last user message; `unknown` when it has none or an unknown kind. */
  step: PromptStep | 'unknown';
  /** What families read: sub-task, original question, every document shown so far. */
  view: BlockPromptView;
  /** `Previous answer:` (critique, refine): the full text under review. */
  previousAnswer?: string;
  /** `Critique:` (refine). */
  critique?: string;
  /** `Role:` (debate turns). */
  role?: string;
  /** `Round: <r> of <n>` (debate turns), 1-based. */
  round?: number;
  rounds?: number;
  /** `Your previous answer:` (debate turns after round 1). */
  ownPreviousAnswer?: string;
  /** `Other agents' answers:` (debate turns after round 1), in prompt order. */
  otherAnswers: DebateAnswerLine[];
  /** `Debate answers:` (debate-final), in prompt order. */
  debateAnswers: DebateAnswerLine[];
  /** `Iterations left:` of the last user message (search loop). */
  iterationsLeft?: number;
}

const STEPS: ReadonlySet<string> = new Set<PromptStep>(PROMPT_STEPS);
const HEADERS = BLOCK_PROMPTS.blockHeaders;
const INLINE = BLOCK_PROMPTS.inlineHeaders;
/** `Step:` without its colon, as readPromptSections keys it. */
const STEP = BLOCK_PROMPTS.stepHeader.slice(0, -1);

/**
 * The reader half of the block prompt codec: reads the messages of a block call, as the writers
 * of block-prompts.ts lay them out, by the headers of the prompt template set (BLOCK_PROMPTS). The
 * step kind and the per-step sections come from the last user message; the sub-task and
 * original question from the last user message that has them (the search loop states them
 * only in its first message); documents from every `Search results:` section of the
 * conversation, deduplicated by id, first-seen order. Runs in time linear in the total text.
 * Never throws: a prompt without a readable `Sub-task:` gets its whole last user message as
 * both sub-task and question, so an unexpected prompt still gets an answer.
 *
 * @example
 * readBlockPrompt(answerPrompt({task, input: task.question})).step; // 'answer'
 */
export function readBlockPrompt(messages: readonly ChatMessage[]): ParsedBlockPrompt {
  let last: MessageSections | undefined;
  let lastContent = '';
  let subTask: string | undefined;
  let originalQuestion: string | undefined;
  const documents: ShownDocument[] = [];
  const seenIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const sections = readPromptSections(message.content);
    last = sections;
    lastContent = message.content;
    const messageSubTask = sections.blocks.get(HEADERS.subTask);
    if (messageSubTask !== undefined) {
      subTask = messageSubTask;
      originalQuestion = sections.blocks.get(HEADERS.originalQuestion);
    }
    for (const results of sections.searchResults) {
      for (const document of readSearchResults(results)) {
        if (seenIds.has(document.id)) continue;
        seenIds.add(document.id);
        documents.push(document);
      }
    }
  }
  const fallback = lastContent.trim();
  const resolvedSubTask = subTask ?? fallback;
  const stepValue = last?.inline.get(STEP);
  const step = stepValue !== undefined && STEPS.has(stepValue) && subTask !== undefined ? (stepValue as PromptStep) : 'unknown';
  const parsed: ParsedBlockPrompt = {
    step,
    view: { subTask: resolvedSubTask, originalQuestion: originalQuestion ?? resolvedSubTask, documents },
    otherAnswers: parseAnswerLines(last?.blocks.get(HEADERS.otherAnswers)),
    debateAnswers: parseAnswerLines(last?.blocks.get(HEADERS.debateAnswers)),
  };
  if (last === undefined) return parsed;
  assignDefined(parsed, 'previousAnswer', last.blocks.get(HEADERS.previousAnswer));
  assignDefined(parsed, 'critique', last.blocks.get(HEADERS.critique));
  assignDefined(parsed, 'ownPreviousAnswer', last.blocks.get(HEADERS.ownPreviousAnswer));
  assignDefined(parsed, 'role', last.inline.get(INLINE.role));
  // BLOCK_PROMPTS.roundValue writes `<r> of <n>`.
  const round = /^(\d+) of (\d+)$/.exec(last.inline.get(INLINE.round) ?? '');
  if (round !== null) {
    parsed.round = Number(round[1]);
    parsed.rounds = Number(round[2]);
  }
  const iterationsLeft = /^\d+$/.exec(last.inline.get(INLINE.iterationsLeft) ?? '');
  if (iterationsLeft !== null) parsed.iterationsLeft = Number(iterationsLeft[0]);
  return parsed;
}

function assignDefined<K extends 'previousAnswer' | 'critique' | 'ownPreviousAnswer' | 'role'>(
  target: ParsedBlockPrompt,
  key: K,
  value: string | undefined,
): void {
  if (value !== undefined) target[key] = value;
}

/** What BLOCK_PROMPTS.roundPrefix writes: `Round <r>, `. */
const ROUND_PREFIX = /^Round (\d+), /;

/** `- <role>: <answer>` lines, optionally `- Round <r>, <role>: <answer>`; other lines are skipped. */
function parseAnswerLines(content: string | undefined): DebateAnswerLine[] {
  if (content === undefined) return [];
  const lines: DebateAnswerLine[] = [];
  for (const rawLine of content.split('\n')) {
    if (!rawLine.startsWith(BLOCK_PROMPTS.answerLinePrefix)) continue;
    let rest = rawLine.slice(BLOCK_PROMPTS.answerLinePrefix.length);
    let round = 0;
    const prefix = ROUND_PREFIX.exec(rest);
    if (prefix !== null) {
      round = Number(prefix[1]);
      rest = rest.slice(prefix[0].length);
    }
    // Roles are short names; the answer may itself contain ': ' so split at the first one.
    const colon = rest.indexOf(': ');
    if (colon === -1) {
      if (rest.endsWith(':')) lines.push({ round, role: rest.slice(0, -1), answer: '' });
      continue;
    }
    lines.push({ round, role: rest.slice(0, colon), answer: rest.slice(colon + 2).trim() });
  }
  return lines;
}
