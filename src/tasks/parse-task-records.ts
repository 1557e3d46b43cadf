import type { z } from 'zod';
import { InvalidInputError, InvalidUtf8Error, readTextFile, type Task, UserError, zodIssues } from '../core/index.js';

/** Stop listing after this many bad records: the first screenful is enough to fix a file. */
const MAX_REPORTED_ISSUES = 20;

/** Where a record sits in its file, for error messages and default ids. */
export interface RecordPosition {
  /** 1-based line (JSONL) or record index (JSON array). */
  number: number;
  /** `line 12` or `record 12`. */
  label: string;
}

export interface ParseTaskRecordsOptions<Schema extends z.ZodType> {
  /** Names the file's kind in errors, e.g. `GSM8K file`. */
  kind: string;
  /** Validates one record. */
  schema: Schema;
  /** Turns a valid record into a task; a thrown UserError is reported against the record. */
  toTask: (record: z.output<Schema>, position: RecordPosition) => Task;
  /** Appended to the error: what a valid record looks like. */
  hint: string;
}

/**
 * Reads a benchmark file, JSON Lines (one record per line, blank lines skipped) or one JSON array
 * (as the official HotpotQA and MuSiQue-full releases ship), validates every record and turns
 * each into a Task. All problems are reported together in one InvalidInputError naming the file,
 * the line (or record) and the field; duplicate task ids are problems too.
 */
export function parseTaskRecords<Schema extends z.ZodType>(path: string, options: ParseTaskRecordsOptions<Schema>): Task[] {
  const { kind, schema, toTask, hint } = options;
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read ${kind} ${path}: ${(error as Error).message}; check the path`, { cause: error });
  }
  const tasks: Task[] = [];
  const issues: { path: string; message: string }[] = [];
  let badRecords = 0;
  const lineOfId = new Map<string, string>();
  for (const { position, value, error } of records(text)) {
    const report = (field: string, message: string) => {
      if (issues.length < MAX_REPORTED_ISSUES) issues.push({ path: field ? `${position.label}: ${field}` : position.label, message });
    };
    if (error !== undefined) {
      badRecords++;
      report('', error);
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      badRecords++;
      for (const issue of zodIssues(parsed.error)) report(issue.path || '(root)', issue.message);
      continue;
    }
    let task: Task;
    try {
      task = toTask(parsed.data, position);
    } catch (caught) {
      if (!(caught instanceof UserError)) throw caught;
      badRecords++;
      report('', caught.message);
      continue;
    }
    const firstUse = lineOfId.get(task.id);
    if (firstUse !== undefined) {
      badRecords++;
      report('id', `duplicate task id "${task.id}" (first used on ${firstUse})`);
      continue;
    }
    lineOfId.set(task.id, position.label);
    tasks.push(task);
  }
  if (badRecords > 0) {
    const more = badRecords > issues.length ? `\n(${badRecords} bad records in all; the first ${issues.length} problems are listed)` : '';
    throw new InvalidInputError(`${kind} ${path}`, issues, `${hint}${more}`);
  }
  if (tasks.length === 0) throw new UserError(`${kind} ${path} holds no records; it must hold one JSON object per line`);
  return tasks;
}

interface RawRecord {
  position: RecordPosition;
  value?: unknown;
  error?: string;
}

function* records(text: string): Generator<RawRecord> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trimStart().startsWith('[')) {
    let array: unknown;
    try {
      array = JSON.parse(body);
    } catch (error) {
      yield { position: { number: 1, label: 'file' }, error: `starts with "[" but is not a valid JSON array (${(error as Error).message})` };
      return;
    }
    const items = Array.isArray(array) ? array : [array];
    for (const [index, value] of items.entries()) yield { position: { number: index + 1, label: `record ${index + 1}` }, value };
    return;
  }
  const lines = body.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const position = { number: index + 1, label: `line ${index + 1}` };
    try {
      yield { position, value: JSON.parse(line) };
    } catch (error) {
      yield { position, error: `not valid JSON (${(error as Error).message})` };
    }
  }
}
