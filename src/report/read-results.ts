import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError, UserError, zodIssues } from '../core/index.js';
import { DemoResultsSchema, type DemoResults } from './results-schema.js';

/**
 * Parses results JSON text, naming every invalid field (`rm.pairAccuracy.overall.ci: ...`).
 * `source` names the file in messages.
 */
export function parseResults(text: string, source: string): DemoResults {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${source} is not valid JSON (${(error as Error).message}); it should be the results.json written by orchrm demo`);
  }
  const parsed = DemoResultsSchema.safeParse(json);
  if (!parsed.success) throw new InvalidInputError(source, zodIssues(parsed.error), 'It should be the results.json written by orchrm demo (the fields are documented in src/report/results-schema.ts).');
  return parsed.data;
}

/**
 * Reads and validates `<dir>/results.json`.
 *
 * @example
 * const results = await readResults('demo-out');
 */
export async function readResults(dir: string): Promise<DemoResults> {
  const path = join(dir, 'results.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${path} does not exist; run orchrm demo --out ${dir} first, or pass the directory that holds results.json`);
    throw new UserError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseResults(text, path);
}
