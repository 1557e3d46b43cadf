import type { ParsedArithQuestion } from './parse-arith-question.js';
import { parseQuestionSentence } from './parse-arith-question.js';
import { LIST_INSTRUCTION } from './render-sentences.js';
import { QUANTITY_ID_SOURCE } from './vocabulary.js';

/** What a sub-task asks: the quantities wanted and the values it hands over as known. */
export interface SubTaskRequest {
  targets: string[];
  /** Quantity id -> value taken as given (upstream answers that are numbers). */
  givens: Map<string, number>;
}

const KNOWN_SPLIT = /\s*\bKnown: /;
const KNOWN_CLAUSE = new RegExp(`^the number of (${QUANTITY_ID_SOURCE}) is ([\\s\\S]*)$`);
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** A number as an upstream answer states it; undefined when it is not one. */
function parseGivenValue(text: string): number | undefined {
  let value = text.trim();
  if (value.endsWith('.')) value = value.slice(0, -1).trimEnd();
  return NUMBER.test(value) ? Number(value) : undefined;
}

/**
 * Reads a sub-task against its task: the task's own question (or an empty input) asks for the
 * task's targets; a sub-question written by `decompose` ("Find A[, then B]." or "How many ...?",
 * optionally followed by "Known: <quantity> is <value>." clauses) asks for its quantities with
 * those values given. A clause whose value is not a number is ignored (the quantity must then be
 * worked out). Undefined when the text is anything else or names a quantity the task lacks.
 */
export function parseSubTask(subTask: string, originalQuestion: string, parsed: ParsedArithQuestion): SubTaskRequest | undefined {
  const text = subTask.trim();
  const { definitions, targets: taskTargets } = parsed.graph;
  if (text === '' || text === originalQuestion.trim()) return { targets: taskTargets, givens: new Map() };
  const [head = '', ...clauses] = text.split(KNOWN_SPLIT);
  let question = head.trim();
  if (question.endsWith(` ${LIST_INSTRUCTION}`)) question = question.slice(0, -LIST_INSTRUCTION.length - 1);
  const targets = parseQuestionSentence(question);
  if (targets === undefined || targets.some((id) => !definitions.has(id))) return undefined;
  const givens = new Map<string, number>();
  for (const clause of clauses) {
    const match = KNOWN_CLAUSE.exec(clause.trim());
    if (match?.[1] === undefined || !definitions.has(match[1])) return undefined;
    const value = parseGivenValue(match[2] ?? '');
    if (value !== undefined) givens.set(match[1], value);
  }
  return { targets, givens };
}
