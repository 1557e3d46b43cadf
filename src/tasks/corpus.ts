import { z } from 'zod';
import { InvalidInputError, InvalidUtf8Error, readTextLines, UserError, zodIssues } from '../core/index.js';

/**
 * One line of a corpus JSONL file. Numeric ids are accepted and turned into strings, since
 * exported corpora often number their passages; a missing title is empty.
 */
export const CorpusDocumentSchema = z.object({
  id: z.union([z.string().min(1, 'id must be a non-empty string'), z.number().int()]).transform(String),
  title: z.string().default(''),
  text: z.string(),
});
export type CorpusDocument = z.output<typeof CorpusDocumentSchema>;

/** Stop collecting after this many bad lines: the first screenful is enough to fix a file. */
const MAX_REPORTED_ISSUES = 20;

/**
 * Reads a JSONL corpus of `{"id", "title", "text"}` lines (blank lines skipped) for a retriever.
 * Every bad line is reported with its line number, as are duplicate ids, in one InvalidInputError.
 *
 * @example
 * const retriever = createBm25Retriever(await loadCorpus('corpus/wiki.jsonl'));
 */
export async function loadCorpus(path: string): Promise<CorpusDocument[]> {
  const documents: CorpusDocument[] = [];
  const issues: { path: string; message: string }[] = [];
  const lineOfId = new Map<string, number>();
  let lineNumber = 0;
  try {
    for await (const line of readTextLines(path)) {
      lineNumber++;
      if (line.trim() === '' || issues.length >= MAX_REPORTED_ISSUES) continue;
      const where = `line ${lineNumber}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        issues.push({ path: where, message: `not valid JSON (${(error as Error).message})` });
        continue;
      }
      const parsed = CorpusDocumentSchema.safeParse(value);
      if (!parsed.success) {
        for (const issue of zodIssues(parsed.error)) issues.push({ path: `${where}: ${issue.path || '(root)'}`, message: issue.message });
        continue;
      }
      const firstLine = lineOfId.get(parsed.data.id);
      if (firstLine !== undefined) {
        issues.push({ path: `${where}: id`, message: `duplicate id "${parsed.data.id}" (first used on line ${firstLine})` });
        continue;
      }
      lineOfId.set(parsed.data.id, lineNumber);
      documents.push(parsed.data);
    }
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read corpus file ${path}: ${(error as Error).message}; check the --corpus path`, { cause: error });
  }
  if (issues.length > 0) {
    throw new InvalidInputError(`corpus file ${path}`, issues, 'Each line must be a JSON object {"id": string, "title": string, "text": string}.');
  }
  return documents;
}
