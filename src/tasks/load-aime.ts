import { z } from 'zod';
import type { Task } from '../core/index.js';
import { parseTaskRecords } from './parse-task-records.js';
import { AnswerSchema, RecordIdSchema, TextSchema } from './record-fields.js';

/** AIME answers are integers 0-999, often written with leading zeros (`025`). */
const AimeAnswerSchema = AnswerSchema.refine((answer) => /^\d{1,3}$/.test(answer), 'answer must be an integer from 0 to 999 (e.g. "25" or "025")');

/** One AIME record; `question` is accepted for `problem`, as some exports name it. */
export const AimeRecordSchema = z
  .object({
    id: RecordIdSchema.optional(),
    problem: TextSchema('problem').optional(),
    question: TextSchema('question').optional(),
    answer: AimeAnswerSchema,
    year: z.union([z.number().int(), z.string().regex(/^\d{4}$/)]).transform(Number).optional(),
    exam: z.string().optional(),
    number: z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(Number).optional(),
  })
  .refine((record) => record.problem !== undefined || record.question !== undefined, { message: 'give the problem text as "problem"', path: ['problem'] });

/**
 * Loads AIME problems (`{"problem", "answer", "id"?, "year"?, "exam"?, "number"?}` per line).
 * The gold is the integer without leading zeros (`025` -> `25`); the AIME grader accepts both.
 * Records without an `id` get `aime-<line>`.
 *
 * @example
 * const tasks = loadAime('aime-2025.jsonl'); // tasks[0] -> { id: '2025-I-1', answer: '70', ... }
 */
export function loadAime(path: string): Task[] {
  return parseTaskRecords(path, {
    kind: 'AIME file',
    schema: AimeRecordSchema,
    hint: 'Each line must be {"problem": string, "answer": "<integer 0-999>"}.',
    toTask: (record, position) => ({
      id: record.id ?? `aime-${position.number}`,
      suite: 'aime',
      question: (record.problem ?? record.question)!,
      answer: String(Number(record.answer)),
      metadata: {
        ...(record.year !== undefined && { year: record.year }),
        ...(record.exam !== undefined && { exam: record.exam }),
        ...(record.number !== undefined && { number: record.number }),
      },
    }),
  });
}
