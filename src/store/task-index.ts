import { z } from 'zod';
import { InvalidInputError, type SqliteDatabase, type Task, zodIssues } from '../core/index.js';
import type { TaskRow as StoredTaskRow } from './row-types.js';
import { rowToTask } from './rows-to-episode.js';

/** How a task's episodes fared: every graded one correct, some, none, none graded, or no episode stored. */
export const TaskOutcomeSchema = z.enum(['all-correct', 'some-correct', 'none-correct', 'ungraded', 'no-episodes']);
export type TaskOutcome = z.infer<typeof TaskOutcomeSchema>;

/** Longest question prefix a listing carries. */
export const TASK_LISTING_QUESTION_CHARS = 280;

/** Which tasks a listing shows, one page at a time; every field narrows it. */
export const TaskListQuerySchema = z.strictObject({
  /** The task's family (`metadata.family`, else its suite). */
  family: z.string().min(1).max(200).optional(),
  /** The split of the task's pairs (`train`, `validation`, `test`), else `metadata.split`. */
  split: z.string().min(1).max(64).optional(),
  outcome: TaskOutcomeSchema.optional(),
  /** Text the question or the id contains (ASCII letters matched in any case). */
  search: z.string().min(1).max(500).optional(),
  /** @default 50 */
  limit: z.number().int().min(1).max(1000).default(50),
  /** @default 0 */
  offset: z.number().int().min(0).default(0),
});
export type TaskListQuery = z.input<typeof TaskListQuerySchema>;

/** One task of a listing: identity, where it belongs, and how its episodes fared. */
export interface TaskListing {
  id: string;
  suite: string;
  family: string;
  split: string | null;
  /** The first `TASK_LISTING_QUESTION_CHARS` characters of the question. */
  question: string;
  questionChars: number;
  episodes: number;
  graded: number;
  correct: number;
  /** Episodes whose status is not `ok` (plan did not parse or validate, or a node failed). */
  failed: number;
  outcome: TaskOutcome;
}

/** The values each filter of a listing can take, with how many tasks have each. */
export interface TaskFacets {
  tasks: number;
  families: { value: string; tasks: number }[];
  splits: { value: string; tasks: number }[];
  outcomes: { value: TaskOutcome; tasks: number }[];
}

/** The temporary table a `TaskIndex` keeps its rows in (TEMP: writable on a read-only connection, gone on close). */
const INDEX_TABLE = 'temp.orchrm_task_index';

/*
 * One row per task: its family and split, and its episodes counted by outcome, computed in one
 * pass over the episodes instead of at every request.
 */
const BUILD_INDEX = `
CREATE TEMP TABLE IF NOT EXISTS orchrm_task_index AS
WITH counts AS (
  -- NOT INDEXED: one sequential pass over the table and a sort is faster than visiting the rows
  -- in episodes_task order (19,200 episodes: 0.3 s against 0.3-0.9 s on a loaded machine).
  SELECT task_id, count(*) AS episodes, count(correct) AS graded, coalesce(sum(correct), 0) AS correct, sum(status != 'ok') AS failed
  FROM episodes NOT INDEXED GROUP BY task_id
), rows AS (
  SELECT t.rowid AS position, t.id AS id,
    coalesce(CASE WHEN json_valid(t.metadata) THEN json_extract(t.metadata, '$.family') END, t.suite) AS family,
    coalesce((SELECT p.split FROM pairs p WHERE p.task_id = t.id AND p.split IS NOT NULL LIMIT 1),
             CASE WHEN json_valid(t.metadata) THEN json_extract(t.metadata, '$.split') END) AS split,
    coalesce(c.episodes, 0) AS episodes, coalesce(c.graded, 0) AS graded, coalesce(c.correct, 0) AS correct, coalesce(c.failed, 0) AS failed
  FROM tasks t LEFT JOIN counts c ON c.task_id = t.id
)
SELECT *, CASE WHEN episodes = 0 THEN 'no-episodes' WHEN graded = 0 THEN 'ungraded' WHEN correct = graded THEN 'all-correct' WHEN correct > 0 THEN 'some-correct' ELSE 'none-correct' END AS outcome
FROM rows;
CREATE INDEX IF NOT EXISTS temp.orchrm_task_index_position ON orchrm_task_index (position);`;

const WHERE = `
WHERE (@family IS NULL OR i.family = @family)
  AND (@split IS NULL OR i.split = @split)
  AND (@outcome IS NULL OR i.outcome = @outcome)
  AND (@search IS NULL OR instr(lower(t.question), @search) > 0 OR instr(lower(t.id), @search) > 0)`;

interface TaskRow {
  id: string;
  suite: string;
  family: unknown;
  split: unknown;
  question: string;
  question_chars: number;
  episodes: number;
  graded: number;
  correct: number;
  failed: number;
  outcome: TaskOutcome;
}

/**
 * The stored tasks with how their episodes fared, to list and filter a page at a time. Built once
 * (one pass over the episodes into a temporary table of one small row per task), then every page
 * costs a scan of the tasks table: a snapshot of the counts as of `build`, while questions and
 * everything else are read fresh. Works on a read-only store.
 *
 * @example
 * const index = store.taskIndex();
 * index.list({ family: 'arith', outcome: 'some-correct', limit: 20 }) // { total: 311, tasks: [...20] }
 */
export class TaskIndex {
  private facetsCache: TaskFacets | undefined;

  constructor(private readonly db: SqliteDatabase) {
    db.exec(BUILD_INDEX);
  }

  /** A page of the tasks matching `query`, in the order they were stored, with the number of all matching tasks. */
  list(query: TaskListQuery = {}): { total: number; tasks: TaskListing[] } {
    const parsed = TaskListQuerySchema.safeParse(query);
    if (!parsed.success) throw new InvalidInputError('task listing query', zodIssues(parsed.error));
    const { family = null, split = null, outcome = null, search, limit, offset } = parsed.data;
    const params = { family, split, outcome, search: search === undefined ? null : search.toLowerCase() };
    const from = `FROM ${INDEX_TABLE} i JOIN tasks t ON t.id = i.id ${WHERE}`;
    const total = this.db.prepare<[typeof params], { total: number }>(`SELECT count(*) AS total ${from}`).get(params)!.total;
    const rows = this.db
      .prepare<[typeof params & { limit: number; offset: number; chars: number }], TaskRow>(
        `SELECT t.id, t.suite, i.family, i.split, substr(t.question, 1, @chars) AS question, length(t.question) AS question_chars, i.episodes, i.graded, i.correct, i.failed, i.outcome
         ${from} ORDER BY i.position LIMIT @limit OFFSET @offset`,
      )
      .all({ ...params, limit, offset, chars: TASK_LISTING_QUESTION_CHARS });
    return {
      total,
      tasks: rows.map((row) => ({
        id: row.id,
        suite: row.suite,
        family: textOr(row.family, row.suite),
        split: textOr(row.split, null),
        question: row.question,
        questionChars: row.question_chars,
        episodes: row.episodes,
        graded: row.graded,
        correct: row.correct,
        failed: row.failed,
        outcome: row.outcome,
      })),
    };
  }

  /** Every family, split and outcome among the stored tasks, with task counts (most tasks first). */
  facets(): TaskFacets {
    if (this.facetsCache !== undefined) return this.facetsCache;
    const rows = this.db
      .prepare<[], { family: unknown; split: unknown; outcome: TaskOutcome; tasks: number }>(`SELECT family, split, outcome, count(*) AS tasks FROM ${INDEX_TABLE} GROUP BY family, split, outcome`)
      .all();
    const sum = <Key extends string>(key: (row: (typeof rows)[number]) => Key | null) => {
      const counts = new Map<Key, number>();
      for (const row of rows) {
        const value = key(row);
        if (value !== null) counts.set(value, (counts.get(value) ?? 0) + row.tasks);
      }
      return [...counts].map(([value, tasks]) => ({ value, tasks })).sort((a, b) => b.tasks - a.tasks || (a.value < b.value ? -1 : 1));
    };
    this.facetsCache = {
      tasks: rows.reduce((total, row) => total + row.tasks, 0),
      families: sum((row) => textOr(row.family, '')),
      splits: sum((row) => textOr(row.split, null)),
      outcomes: sum((row) => row.outcome),
    };
    return this.facetsCache;
  }
}

/** A stored task by id, or undefined. */
export function getTask(db: SqliteDatabase, id: string): Task | undefined {
  const row = db.prepare<[string], StoredTaskRow>('SELECT * FROM tasks WHERE id = ?').get(id);
  return row === undefined ? undefined : rowToTask(row);
}

/** A metadata value as text (metadata is any JSON: a number or object becomes its JSON). */
function textOr<Fallback extends string | null>(value: unknown, fallback: Fallback): string | Fallback {
  if (value === null || value === undefined) return fallback;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
