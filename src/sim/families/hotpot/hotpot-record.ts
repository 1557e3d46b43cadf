import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../../../core/index.js';

/**
 * One HotpotQA record in the official distractor format (`hotpot_dev_distractor_v1.json`, one
 * record per JSONL line). Fields orchrm does not use are kept out; `context` is checked but only
 * its shape matters here, since paragraphs come from the corpus file.
 */
export const HotpotRecordSchema = z.object({
  // Some published subsets number a few records (`"_id": 37`); ids are text either way.
  _id: z.union([z.string().min(1), z.number().int()]).transform(String),
  question: z.string().min(1),
  answer: z.string(),
  type: z.string().default('bridge'),
  level: z.string().default('unknown'),
  supporting_facts: z.array(z.tuple([z.string(), z.number().int()])).min(1, 'a question needs at least one supporting fact'),
  context: z.array(z.tuple([z.string(), z.array(z.string())])).default([]),
});
export type HotpotRecord = z.output<typeof HotpotRecordSchema>;

/** Stop collecting after this many bad lines: the first screenful is enough to fix a file. */
const MAX_REPORTED_ISSUES = 20;

/** Reads a HotpotQA JSONL file; every bad line is reported with its number in one InvalidInputError. */
export async function loadHotpotRecords(path: string): Promise<HotpotRecord[]> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read HotpotQA file ${path}: ${(error as Error).message}; check families.hotpot.path`, { cause: error });
  }
  const records: HotpotRecord[] = [];
  const issues: { path: string; message: string }[] = [];
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '' || issues.length >= MAX_REPORTED_ISSUES) return;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      issues.push({ path: where, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    const parsed = HotpotRecordSchema.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else for (const issue of zodIssues(parsed.error)) issues.push({ path: `${where}: ${issue.path || '(root)'}`, message: issue.message });
  });
  if (issues.length > 0) {
    throw new InvalidInputError(`HotpotQA file ${path}`, issues, 'Each line must be a HotpotQA record {"_id", "question", "answer", "supporting_facts": [[title, sentence], ...], ...}.');
  }
  if (records.length === 0) throw new UserError(`HotpotQA file ${path} has no records; it must hold one JSON record per line`);
  return records;
}
