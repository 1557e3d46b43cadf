import { z } from 'zod';
import type { Task } from '../core/index.js';
import { parseTaskRecords } from './parse-task-records.js';
import { RecordIdSchema, TextSchema } from './record-fields.js';

const FINAL_ANSWER_MARK = '####';

/** One GSM8K record: `answer` is a worked solution ending in a `#### <number>` line. */
export const Gsm8kRecordSchema = z.object({
  id: RecordIdSchema.optional(),
  question: TextSchema('question'),
  answer: z
    .string('answer must be a string')
    .refine((answer) => finalAnswer(answer) !== '', 'answer must end with a "#### <final answer>" line, as GSM8K solutions do'),
});

/**
 * Loads GSM8K (`{"question", "answer"}` per line, as in openai/grade-school-math). The gold is
 * the text after the last `####`; the worked solution is kept as `metadata.solution`. Records
 * without an `id` get `gsm8k-<line>`.
 *
 * @example
 * const tasks = loadGsm8k('grade_school_math/data/test.jsonl'); // tasks[0].answer === '18'
 */
export function loadGsm8k(path: string): Task[] {
  return parseTaskRecords(path, {
    kind: 'GSM8K file',
    schema: Gsm8kRecordSchema,
    hint: 'Each line must be {"question": string, "answer": "<worked solution>\\n#### <final answer>"}.',
    toTask: (record, position) => ({
      id: record.id ?? `gsm8k-${position.number}`,
      suite: 'gsm8k',
      question: record.question,
      answer: finalAnswer(record.answer),
      metadata: { solution: record.answer.slice(0, record.answer.lastIndexOf(FINAL_ANSWER_MARK)).trim() },
    }),
  });
}

function finalAnswer(solution: string): string {
  const at = solution.lastIndexOf(FINAL_ANSWER_MARK);
  return at === -1 ? '' : solution.slice(at + FINAL_ANSWER_MARK.length).trim();
}
