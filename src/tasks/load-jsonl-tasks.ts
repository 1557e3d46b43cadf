import { z } from 'zod';
import type { Task } from '../core/index.js';
import { parseTaskRecords } from './parse-task-records.js';

/** Which record fields hold what; dotted paths reach nested fields (`meta.question`). */
export interface JsonlFieldMapping {
  /** @default 'question' */
  questionField?: string;
  /** Optional in each record: records without it are left ungraded. @default 'answer' */
  answerField?: string;
  /** Optional in each record: records without it get `<suite>-<line>`. @default 'id' */
  idField?: string;
  /** A list of strings also accepted as correct. @default 'answerAliases' */
  aliasesField?: string;
  /** Written into each task's `suite`. @default 'jsonl' */
  suite?: string;
}

const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);

/**
 * Loads any JSONL (or JSON array) of question records, reading the question, answer, id and
 * aliases from the mapped fields. Every other top-level field, and the fields of an object
 * `metadata`, go to `Task.metadata`. orchrm's own task files load with the default mapping.
 *
 * @example
 * loadJsonlTasks('triviaqa.jsonl', { questionField: 'Question', answerField: 'Answer.Value', idField: 'QuestionId' });
 */
export function loadJsonlTasks(path: string, mapping: JsonlFieldMapping = {}): Task[] {
  const { questionField = 'question', answerField = 'answer', idField = 'id', aliasesField = 'answerAliases', suite = 'jsonl' } = mapping;
  const fieldPath = (field: string) => field.split('.');
  const schema = z.record(z.string(), z.unknown(), 'each record must be a JSON object').superRefine((record, context) => {
    const question = valueAt(record, questionField);
    if (typeof question !== 'string' || question.trim() === '') {
      const found = question === undefined ? 'it is missing' : `got ${JSON.stringify(question).slice(0, 40)}`;
      context.addIssue({ code: 'custom', path: fieldPath(questionField), message: `the question must be a non-empty string (${found}); choose the field with --question-field` });
    }
    for (const [field, flag] of [
      [answerField, '--answer-field'],
      [idField, '--id-field'],
    ] as const) {
      const value = valueAt(record, field);
      if (value !== undefined && value !== null && !ScalarSchema.safeParse(value).success) {
        context.addIssue({ code: 'custom', path: fieldPath(field), message: `must be a string or a number, got ${JSON.stringify(value).slice(0, 40)}; choose the field with ${flag}` });
      }
    }
    const aliases = valueAt(record, aliasesField);
    if (aliases !== undefined && !z.array(ScalarSchema).safeParse(aliases).success) {
      context.addIssue({ code: 'custom', path: fieldPath(aliasesField), message: 'answer aliases must be a list of strings' });
    }
  });
  const mapped = new Set([questionField, answerField, idField, aliasesField, 'metadata', 'suite']);
  return parseTaskRecords(path, {
    kind: 'task file',
    schema,
    hint: `Each line must be a JSON object with a "${questionField}" string (change the field names with --question-field, --answer-field, --id-field).`,
    toTask: (record, position) => {
      const answer = valueAt(record, answerField);
      const aliases = valueAt(record, aliasesField) as unknown[] | undefined;
      const id = valueAt(record, idField);
      const nested = record.metadata;
      const rest = Object.entries(record).filter(([key]) => !mapped.has(key));
      const metadata = { ...Object.fromEntries(rest), ...(isObject(nested) ? nested : {}) };
      return {
        id: id === undefined || id === null || String(id).trim() === '' ? `${suite}-${position.number}` : String(id),
        suite: typeof record.suite === 'string' && record.suite !== '' ? record.suite : suite,
        question: String(valueAt(record, questionField)).trim(),
        ...(answer !== undefined && answer !== null && { answer: String(answer).trim() }),
        ...(aliases !== undefined && { answerAliases: aliases.map(String) }),
        metadata,
      };
    },
  });
}

function valueAt(record: Record<string, unknown>, field: string): unknown {
  // A literal key with dots wins over a nested path.
  if (field in record) return record[field];
  let current: unknown = record;
  for (const part of field.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
