/**
 * Prompt templates of the built-in blocks.
 *
 * A user message is a list of sections separated by one blank line; a section is either inline
 * header lines (`Role: Economist` / `Round: 2 of 5` share one section) or a block header line
 * followed by its content. The wording is kept stable
 * because the simulated worker model (`sim/`) recognises prompts by these headers, so every
 * header sits on its own line, spelled exactly as below.
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
 * Replies are read through tags: `<answer>...</answer>` everywhere, `<verdict>correct</verdict>`
 * or `<verdict>incorrect</verdict>` from the critic, `<search>query</search>` in the search loop.
 */
import type { ChatMessage } from '../core/llm-call.js';
import type { RetrievedDocument } from '../core/retriever.js';
import type { Task } from '../core/task.js';

export type PromptStep = 'answer' | 'critique' | 'refine' | 'debate-turn' | 'debate-final' | 'search' | 'search-final';

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

const ANSWER_INSTRUCTION = 'Think step by step, then end your reply with your final answer inside <answer></answer> tags.';

const WORKER_SYSTEM =
  'You are a careful expert solving one sub-task of a larger problem. Use the sections of the user message, reason step by step, and always finish with your final answer inside <answer></answer> tags.';
const CRITIC_SYSTEM =
  'You are a strict reviewer. Check a proposed answer step by step, point out concrete errors, and give a verdict in <verdict></verdict> tags.';
const DEBATE_SYSTEM =
  'You are one agent in a debate among several agents solving the same sub-task. Weigh the other agents\' arguments honestly, change your mind when they are right, and finish with your final answer inside <answer></answer> tags.';
const SEARCH_SYSTEM =
  'You answer questions by searching a document collection. Each turn, either write <search>a short query</search> to search, or write <answer>your answer</answer> when the results are enough. Base your answer on the documents.';

function section(header: string, content: string): string {
  return `${header}\n${content}`;
}

/** `Step:`, `Sub-task:` and, when different, `Original question:`. */
function subjectSections(step: PromptStep, subject: PromptSubject): string[] {
  const sections = [`Step: ${step}`, section('Sub-task:', subject.input)];
  if (subject.input.trim() !== subject.task.question.trim()) {
    sections.push(section('Original question:', subject.task.question));
  }
  return sections;
}

function user(sections: readonly string[]): ChatMessage {
  return { role: 'user', content: sections.join('\n\n') };
}

function tail(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `[...] ${text.slice(text.length - maxChars)}`;
}

function reasoningBlocks(turns: readonly DebateTurnView[]): string {
  return turns.map((turn) => `### ${turn.role}\n${tail(turn.output.trim(), MAX_REASONING_CHARS)}`).join('\n');
}

/** A plain answer: cot, every sc sample, reflexion's first attempt. */
export function answerPrompt(subject: PromptSubject): ChatMessage[] {
  return [
    { role: 'system', content: WORKER_SYSTEM },
    user([...subjectSections('answer', subject), section('Instructions:', ANSWER_INSTRUCTION)]),
  ];
}

/** Reflexion's critic: reviews the previous answer and gives a verdict. */
export function critiquePrompt(subject: PromptSubject, previousOutput: string): ChatMessage[] {
  return [
    { role: 'system', content: CRITIC_SYSTEM },
    user([
      ...subjectSections('critique', subject),
      section('Previous answer:', previousOutput.trim()),
      section(
        'Instructions:',
        'Check the previous answer step by step and explain any error. End with <verdict>correct</verdict> if the answer is correct, or <verdict>incorrect</verdict> if it is not.',
      ),
    ]),
  ];
}

/** Reflexion's refine step: a new answer given the critique. */
export function refinePrompt(subject: PromptSubject, previousOutput: string, critique: string): ChatMessage[] {
  return [
    { role: 'system', content: WORKER_SYSTEM },
    user([
      ...subjectSections('refine', subject),
      section('Previous answer:', previousOutput.trim()),
      section('Critique:', critique.trim()),
      section('Instructions:', `Fix the problems the critique found and solve the sub-task again. ${ANSWER_INSTRUCTION}`),
    ]),
  ];
}

/** One debate turn; `previous` is undefined in the first round. */
export function debateTurnPrompt(
  subject: PromptSubject,
  turn: { role: string; round: number; rounds: number; own?: DebateTurnView; others: readonly DebateTurnView[] },
): ChatMessage[] {
  const sections = [...subjectSections('debate-turn', subject), `Role: ${turn.role}\nRound: ${turn.round + 1} of ${turn.rounds}`];
  if (turn.own !== undefined) sections.push(section('Your previous answer:', turn.own.answer));
  if (turn.others.length > 0) {
    sections.push(section("Other agents' answers:", turn.others.map((other) => `- ${other.role}: ${other.answer}`).join('\n')));
    sections.push(section("Other agents' reasoning:", reasoningBlocks(turn.others)));
  }
  const instruction =
    turn.others.length > 0
      ? `Answer as ${turn.role}. Consider the other agents' answers and reasoning. ${ANSWER_INSTRUCTION}`
      : `Answer as ${turn.role}. ${ANSWER_INSTRUCTION}`;
  sections.push(section('Instructions:', instruction));
  return [{ role: 'system', content: DEBATE_SYSTEM }, user(sections)];
}

/** The final decision after the last debate round. */
export function debateFinalPrompt(
  subject: PromptSubject,
  debate: { rounds: readonly (readonly DebateTurnView[])[] },
): ChatMessage[] {
  const answerLines = debate.rounds.flatMap((turns, round) => turns.map((turn) => `- Round ${round + 1}, ${turn.role}: ${turn.answer}`));
  const lastRound = debate.rounds[debate.rounds.length - 1] ?? [];
  return [
    { role: 'system', content: WORKER_SYSTEM },
    user([
      ...subjectSections('debate-final', subject),
      section('Debate answers:', answerLines.join('\n')),
      section('Final-round reasoning:', reasoningBlocks(lastRound)),
      section('Instructions:', `Decide the final answer to the sub-task from the debate. ${ANSWER_INSTRUCTION}`),
    ]),
  ];
}

/** The opening messages of the search loop. */
export function searchStartPrompt(subject: PromptSubject, iterationsLeft: number): ChatMessage[] {
  return [
    { role: 'system', content: SEARCH_SYSTEM },
    user([
      ...subjectSections('search', subject),
      `Iterations left: ${iterationsLeft}`,
      section('Instructions:', 'Write <search>a short query</search> to search the collection, or <answer>your answer</answer> if you can already answer.'),
    ]),
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
  const sections = [`Step: ${final ? 'search-final' : 'search'}`];
  if (feedback.query !== undefined) {
    sections.push(`Query: ${feedback.query}`);
    sections.push(section('Search results:', renderResults(feedback.documents ?? [], feedback.error)));
  }
  sections.push(`Iterations left: ${Math.max(0, feedback.iterationsLeft)}`);
  const reminder = feedback.query === undefined ? 'Your last reply had neither a <search> nor an <answer> tag. ' : '';
  const next = final
    ? 'No searches are left. Give your final answer now inside <answer></answer> tags.'
    : 'Write <search>a short query</search> to search again, or <answer>your answer</answer> if the results are enough.';
  sections.push(section('Instructions:', reminder + next));
  return user(sections);
}

function renderResults(documents: readonly RetrievedDocument[], error: string | undefined): string {
  if (error !== undefined) return `(search failed: ${error})`;
  if (documents.length === 0) return '(no results)';
  return documents
    .map((document, index) => {
      const text = document.text.length <= MAX_RESULT_CHARS ? document.text : `${document.text.slice(0, MAX_RESULT_CHARS)} [...]`;
      return `[${index + 1}] ${document.title} (id: ${document.id})\n${text.trim()}`;
    })
    .join('\n');
}
