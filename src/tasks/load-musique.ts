import { z } from 'zod';
import type { Task } from '../core/index.js';
import { parseTaskRecords } from './parse-task-records.js';
import { AnswerSchema, RecordIdSchema, TextSchema } from './record-fields.js';
import { SUPPORTING_TITLES_KEY, distinct } from './supporting-titles.js';

const ParagraphSchema = z.object({
  idx: z.number().int().nonnegative(),
  title: z.string(),
  paragraph_text: z.string(),
  is_supporting: z.boolean().default(false),
});

/** One MuSiQue record (MuSiQue-Ans or MuSiQue-Full). */
export const MusiqueRecordSchema = z.object({
  id: RecordIdSchema,
  question: TextSchema('question'),
  answer: AnswerSchema.optional(),
  answer_aliases: z.array(z.string()).default([]),
  answerable: z.boolean().default(true),
  paragraphs: z.array(ParagraphSchema),
  question_decomposition: z.array(z.looseObject({ question: z.string().optional(), answer: z.string().optional() })).optional(),
});

/**
 * Loads MuSiQue (`{"id", "question", "answer", "answer_aliases", "paragraphs"}` per line).
 * Aliases become `answerAliases`; metadata keeps `supportingTitles` (titles of the paragraphs
 * marked `is_supporting`), `supportingParagraphs` (their `idx`), `hops` (from the id prefix,
 * e.g. `3hop1__...` -> 3, else the decomposition length) and `answerable`. Unanswerable
 * records (MuSiQue-Full) load without a gold answer, so they are left ungraded.
 *
 * @example
 * const tasks = loadMusique('musique_ans_v1.0_dev.jsonl'); // tasks[0].answerAliases
 */
export function loadMusique(path: string): Task[] {
  return parseTaskRecords(path, {
    kind: 'MuSiQue file',
    schema: MusiqueRecordSchema,
    hint: 'Each line must be {"id", "question", "answer", "answer_aliases": [string], "paragraphs": [{"idx", "title", "paragraph_text", "is_supporting"}]}.',
    toTask: (record) => {
      const supporting = record.paragraphs.filter((paragraph) => paragraph.is_supporting);
      const hops = Number(/^(\d+)hop/.exec(record.id)?.[1] ?? record.question_decomposition?.length ?? 0);
      const graded = record.answerable && record.answer !== undefined && record.answer !== '';
      return {
        id: record.id,
        suite: 'musique',
        question: record.question,
        ...(graded && { answer: record.answer, answerAliases: record.answer_aliases }),
        metadata: {
          [SUPPORTING_TITLES_KEY]: distinct(supporting.map((paragraph) => paragraph.title)),
          supportingParagraphs: supporting.map((paragraph) => paragraph.idx),
          ...(hops > 0 && { hops }),
          answerable: record.answerable,
        },
      };
    },
  });
}
