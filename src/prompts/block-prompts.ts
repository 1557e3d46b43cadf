/**
 * The prompts of the built-in blocks: the writer half of the block prompt codec. The reader half,
 * `readBlockPrompt` (read-block-prompt.ts), is what the simulated worker model (`sim/`) uses to
 * read these prompts back; block-prompts.test.ts checks that every field written is read back.
 *
 * Every word comes from the prompt template set (BLOCK_PROMPTS). A user message is a list of
 * sections separated by one blank line; a section is either inline header lines
 * (`Role: Economist` / `Round: 2 of 5` share one section) or a block header line followed by its
 * content; every header sits on its own line.
 *
 * Inline headers (the value follows on the same line):
 * - `Step: <kind>`: first line of every user message; kind is one of {@link PromptStep}:
 *   `answer` (cot, sc samples, reflexion's first answer), `critique`, `refine`, `debate-turn`,
 *   `debate-final`, `search` (a search-loop turn), `search-final` (the forced answer turn).
 * - `Role: <name>` and `Round: <r> of <n>` (1-based): debate turns.
 * - `Query: <text>`: a search feedback message, the query that was run.
 * - `Iterations left: <k>`: search start and feedback messages, searches still allowed.
 *
 * Block headers (the content follows on the next lines, up to the next blank-line section):
 * - `Sub-task:`: always; the node's input.
 * - `Original question:`: only when the sub-task differs from the task's question.
 * - `Previous answer:`: critique and refine; the full text of the answer under review.
 * - `Critique:`: refine; the critic's full text.
 * - `Your previous answer:`: debate turns after round 1; this role's own last answer.
 * - `Other agents' answers:`: debate turns after round 1; one line `- <role>: <answer>` per
 *   other agent.
 * - `Other agents' reasoning:`: debate turns after round 1; per other agent a `### <role>` line,
 *   then its previous-round text (the last {@link MAX_REASONING_CHARS} characters).
 * - `Debate answers:`: debate-final; one line `- Round <r>, <role>: <answer>` per turn.
 * - `Final-round reasoning:`: debate-final; `### <role>` blocks as above.
 * - `Search results:`: search feedback; per document `[<i>] <title> (id: <doc id>)` then its
 *   text (the first {@link MAX_RESULT_CHARS} characters), or `(no results)`, or
 *   `(search failed: <reason>)`.
 * - `Instructions:`: always last; what to write and the required tags.
 *
 * The search loop is one growing conversation (system, user, then assistant reply and user
 * feedback alternating); the Step of its last user message says what is asked now. Every other
 * call is a system message and one user message.
 *
 * Replies are read through tags (block-replies.ts, the reply codec): `<answer>...</answer>`
 * everywhere, `<verdict>correct</verdict>` or `<verdict>incorrect</verdict>` from the critic,
 * `<search>query</search>` in the search loop.
 */
import type { ChatMessage, RetrievedDocument, Task } from '../core/index.js';
import { BLOCK_PROMPTS, type PromptStep } from './prompt-templates.js';

/** Bound on another agent's text quoted in a debate prompt, so prompts grow linearly with roles. */
export const MAX_REASONING_CHARS = 2_000;
/** Bound on one retrieved document's text shown to the search loop. */
export const MAX_RESULT_CHARS = 600;

/** What every prompt needs: the node's input and the task it belongs to. */
export interface PromptSubject {
  task: Task;
  input: string;
}

export interface DebateTurnView {
  role: string;
  answer: string;
  output: string;
}

const { blockHeaders: HEADERS, inlineHeaders: INLINE, systems: SYSTEMS, instructions: INSTRUCTIONS } = BLOCK_PROMPTS;

function section(header: string, content: string): string {
  return `${header}\n${content}`;
}

function inline(name: string, value: string | number): string {
  return `${name}: ${value}`;
}

/** `Step:`, `Sub-task:` and, when different, `Original question:`. */
function subjectSections(step: PromptStep, subject: PromptSubject): string[] {
  const sections = [`${BLOCK_PROMPTS.stepHeader} ${step}`, section(HEADERS.subTask, subject.input)];
  if (subject.input.trim() !== subject.task.question.trim()) {
    sections.push(section(HEADERS.originalQuestion, subject.task.question));
  }
  return sections;
}

function user(sections: readonly string[]): ChatMessage {
  return { role: 'user', content: sections.join('\n\n') };
}

function tail(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${BLOCK_PROMPTS.cutStart}${text.slice(text.length - maxChars)}`;
}

function reasoningBlocks(turns: readonly DebateTurnView[]): string {
  return turns.map((turn) => `${BLOCK_PROMPTS.reasoningHeading}${turn.role}\n${tail(turn.output.trim(), MAX_REASONING_CHARS)}`).join('\n');
}

/** A plain answer: cot, every sc sample, reflexion's first attempt. */
export function answerPrompt(subject: PromptSubject): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEMS.worker },
    user([...subjectSections('answer', subject), section(HEADERS.instructions, INSTRUCTIONS.answer)]),
  ];
}

/** Reflexion's critic: reviews the previous answer and gives a verdict. */
export function critiquePrompt(subject: PromptSubject, previousOutput: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEMS.critic },
    user([...subjectSections('critique', subject), section(HEADERS.previousAnswer, previousOutput.trim()), section(HEADERS.instructions, INSTRUCTIONS.critique)]),
  ];
}

/** Reflexion's refine step: a new answer given the critique. */
export function refinePrompt(subject: PromptSubject, previousOutput: string, critique: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEMS.worker },
    user([
      ...subjectSections('refine', subject),
      section(HEADERS.previousAnswer, previousOutput.trim()),
      section(HEADERS.critique, critique.trim()),
      section(HEADERS.instructions, `${INSTRUCTIONS.refine} ${INSTRUCTIONS.answer}`),
    ]),
  ];
}

/** One debate turn; `previous` is undefined in the first round. */
export function debateTurnPrompt(
  subject: PromptSubject,
  turn: { role: string; round: number; rounds: number; own?: DebateTurnView; others: readonly DebateTurnView[] },
): ChatMessage[] {
  const sections = [
    ...subjectSections('debate-turn', subject),
    `${inline(INLINE.role, turn.role)}\n${inline(INLINE.round, BLOCK_PROMPTS.roundValue(turn.round + 1, turn.rounds))}`,
  ];
  if (turn.own !== undefined) sections.push(section(HEADERS.ownPreviousAnswer, turn.own.answer));
  if (turn.others.length > 0) {
    sections.push(section(HEADERS.otherAnswers, turn.others.map((other) => `${BLOCK_PROMPTS.answerLinePrefix}${other.role}: ${other.answer}`).join('\n')));
    sections.push(section(HEADERS.otherReasoning, reasoningBlocks(turn.others)));
  }
  const instruction = turn.others.length > 0 ? INSTRUCTIONS.debateTurnWithOthers(turn.role) : INSTRUCTIONS.debateTurn(turn.role);
  sections.push(section(HEADERS.instructions, `${instruction} ${INSTRUCTIONS.answer}`));
  return [{ role: 'system', content: SYSTEMS.debate }, user(sections)];
}

/** The final decision after the last debate round. */
export function debateFinalPrompt(
  subject: PromptSubject,
  debate: { rounds: readonly (readonly DebateTurnView[])[] },
): ChatMessage[] {
  const answerLines = debate.rounds.flatMap((turns, round) =>
    turns.map((turn) => `${BLOCK_PROMPTS.answerLinePrefix}${BLOCK_PROMPTS.roundPrefix(round + 1)}${turn.role}: ${turn.answer}`),
  );
  const lastRound = debate.rounds[debate.rounds.length - 1] ?? [];
  return [
    { role: 'system', content: SYSTEMS.worker },
    user([
      ...subjectSections('debate-final', subject),
      section(HEADERS.debateAnswers, answerLines.join('\n')),
      section(HEADERS.finalRoundReasoning, reasoningBlocks(lastRound)),
      section(HEADERS.instructions, `${INSTRUCTIONS.debateFinal} ${INSTRUCTIONS.answer}`),
    ]),
  ];
}

/** The opening messages of the search loop. */
export function searchStartPrompt(subject: PromptSubject, iterationsLeft: number): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEMS.search },
    user([...subjectSections('search', subject), inline(INLINE.iterationsLeft, iterationsLeft), section(HEADERS.instructions, INSTRUCTIONS.searchStart)]),
  ];
}

/**
 * What the search loop tells the model after a turn: the results of its query (or why there are
 * none) and what to write next. With no iterations left it asks for the final answer.
 */
export function searchFeedbackMessage(feedback: {
  /** Absent when the last reply had neither a search nor an answer. */
  query?: string;
  documents?: readonly RetrievedDocument[];
  error?: string;
  iterationsLeft: number;
}): ChatMessage {
  const final = feedback.iterationsLeft <= 0;
  const step: PromptStep = final ? 'search-final' : 'search';
  const sections = [`${BLOCK_PROMPTS.stepHeader} ${step}`];
  if (feedback.query !== undefined) {
    sections.push(inline(INLINE.query, feedback.query));
    sections.push(section(HEADERS.searchResults, renderResults(feedback.documents ?? [], feedback.error)));
  }
  sections.push(inline(INLINE.iterationsLeft, Math.max(0, feedback.iterationsLeft)));
  const reminder = feedback.query === undefined ? INSTRUCTIONS.searchNoTag : '';
  sections.push(section(HEADERS.instructions, reminder + (final ? INSTRUCTIONS.searchFinal : INSTRUCTIONS.searchAgain)));
  return user(sections);
}

function renderResults(documents: readonly RetrievedDocument[], error: string | undefined): string {
  const marks = BLOCK_PROMPTS.searchResults;
  if (error !== undefined) return marks.failed(error);
  if (documents.length === 0) return marks.none;
  return documents
    .map((document, index) => {
      const text = document.text.length <= MAX_RESULT_CHARS ? document.text : `${document.text.slice(0, MAX_RESULT_CHARS)}${marks.cutEnd}`;
      return `[${index + 1}] ${document.title}${marks.idMark}${document.id})\n${text.trim()}`;
    })
    .join('\n');
}
