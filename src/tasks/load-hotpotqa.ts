import { z } from 'zod';
import type { Task } from '../core/index.js';
import { parseTaskRecords } from './parse-task-records.js';
import { AnswerSchema, RecordIdSchema, TextSchema } from './record-fields.js';
import { SUPPORTING_TITLES_KEY, distinct } from './supporting-titles.js';

/** `[title, sentence index]`. */
const SupportingFactSchema = z.tuple([z.string(), z.number().int().nonnegative()], 'each supporting fact must be [title, sentence index]');
/** `[title, [sentence, ...]]`. */
const ContextParagraphSchema = z.tuple([z.string(), z.array(z.string())], 'each context entry must be [title, [sentence, ...]]');

/** One HotpotQA record (official `hotpot_dev_distractor_v1.json` format). */
export const HotpotQaRecordSchema = z.object({
  _id: RecordIdSchema,
  question: TextSchema('question'),
  /** Absent from the hidden test split. */
  answer: AnswerSchema.optional(),
  supporting_facts: z.array(SupportingFactSchema).optional(),
  context: z.array(ContextParagraphSchema).optional(),
  type: z.string().optional(),
  level: z.string().optional(),
});

/**
 * Loads HotpotQA (distractor or fullwiki format; JSONL or the official JSON array). Metadata
 * keeps `supportingTitles` (distinct titles of `supporting_facts`, the gold paragraphs for
 * retrieval recall), `supportingFacts`, `contextTitles` (the 10 candidate paragraphs of the
 * distractor setting), `type` (bridge / comparison) and `level`.
 *
 * @example
 * const tasks = loadHotpotQa('hotpot_dev_distractor_v1.json');
 */
export function loadHotpotQa(path: string): Task[] {
  return parseTaskRecords(path, {
    kind: 'HotpotQA file',
    schema: HotpotQaRecordSchema,
    hint: 'Each record must be {"_id", "question", "answer", "supporting_facts": [[title, sentence]], "context": [[title, [sentences]]]}.',
    toTask: (record) => {
      const facts = record.supporting_facts ?? [];
      return {
        id: record._id,
        suite: 'hotpotqa',
        question: record.question,
        ...(record.answer !== undefined && { answer: record.answer }),
        metadata: {
          [SUPPORTING_TITLES_KEY]: distinct(facts.map(([title]) => title)),
          supportingFacts: facts,
          contextTitles: (record.context ?? []).map(([title]) => title),
          ...(record.type !== undefined && { type: record.type }),
          ...(record.level !== undefined && { level: record.level }),
        },
      };
    },
  });
}
