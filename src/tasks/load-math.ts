import { z } from 'zod';
import { type Task, UserError } from '../core/index.js';
import { lastBoxed } from './last-boxed.js';
import { parseTaskRecords } from './parse-task-records.js';
import { AnswerSchema, RecordIdSchema, TextSchema } from './record-fields.js';

/** `5`, `"5"` or the original MATH release's `"Level 5"`. */
const LevelSchema = z
  .union([z.number().int(), z.string().regex(/^\s*(level\s*)?\d+\s*$/i, 'level must be a number such as 5 or "Level 5"')])
  .transform((level) => (typeof level === 'number' ? level : Number(level.replace(/\D/g, ''))));

/**
 * One MATH record. MATH-500 (PRM800K split) has `answer`; the original Hendrycks MATH release
 * has only `solution`, whose last `\boxed{}` is the answer; `type` is its name for `subject`.
 */
export const MathRecordSchema = z
  .object({
    unique_id: RecordIdSchema.optional(),
    id: RecordIdSchema.optional(),
    problem: TextSchema('problem'),
    answer: AnswerSchema.optional(),
    solution: z.string().optional(),
    level: LevelSchema.optional(),
    subject: z.string().optional(),
    type: z.string().optional(),
  })
  .refine((record) => record.answer !== undefined || record.solution !== undefined, {
    message: 'give "answer", or a "solution" ending in \\boxed{answer}',
    path: ['answer'],
  });

/**
 * Loads MATH-500 / MATH (`{"problem", "answer", "level", "subject", "unique_id"?}` per line).
 * Ids are `unique_id` (e.g. `test/precalculus/807.json`), else `id`, else `math-<line>`;
 * `level` and `subject` go to metadata.
 *
 * @example
 * const tasks = loadMath('math500/test.jsonl'); // tasks[0].answer === '\\left( 3, \\frac{\\pi}{2} \\right)'
 */
export function loadMath(path: string): Task[] {
  return parseTaskRecords(path, {
    kind: 'MATH file',
    schema: MathRecordSchema,
    hint: 'Each line must be {"problem": string, "answer": string, "level"?: 1-5, "subject"?: string}.',
    toTask: (record, position) => {
      const answer = record.answer ?? lastBoxed(record.solution ?? '');
      if (answer === undefined || answer === '') throw new UserError('answer: missing, and the solution has no \\boxed{} answer');
      const subject = record.subject ?? record.type;
      return {
        id: record.unique_id ?? record.id ?? `math-${position.number}`,
        suite: 'math',
        question: record.problem,
        answer,
        metadata: { ...(record.level !== undefined && { level: record.level }), ...(subject !== undefined && { subject }) },
      };
    },
  });
}
