import { type Episode, InvalidInputError, type SqliteDatabase, type SqliteStatement } from '../core/index.js';
import type { EpisodeFilter } from './episode-filter.js';
import { filterToSql } from './episode-filter.js';
import type { EpisodeRow, LlmCallRow, NodeTraceRow, TaskRow } from './row-types.js';
import { rowsToEpisode } from './rows-to-episode.js';

/** How much of each episode to read back. */
export interface EpisodeReadOptions {
  /**
   * Read every LLM call (prompts when kept, responses, usage). Calls are most of an episode's
   * bytes; miners that only need plans, answers and artifacts can skip them, and then get
   * `calls: []` on every node and no `orchestratorCall`.
   * @default true
   */
  withCalls?: boolean;
}

/** Episodes per query when iterating; bounds memory whatever the number of episodes stored. */
const PAGE_SIZE = 256;

const ID_LIST = 'IN (SELECT value FROM json_each(?))';

/** Reads episodes back, a page of rows at a time with one query per table per page. */
export class EpisodeReader {
  private readonly selectOne: SqliteStatement<[string], EpisodeRow>;
  private readonly selectTasks: SqliteStatement<[string], TaskRow>;
  private readonly selectNodes: SqliteStatement<[string], NodeTraceRow>;
  private readonly selectCalls: SqliteStatement<[string], LlmCallRow>;

  constructor(private readonly db: SqliteDatabase) {
    this.selectOne = db.prepare('SELECT * FROM episodes WHERE id = ?');
    this.selectTasks = db.prepare(`SELECT * FROM tasks WHERE id ${ID_LIST}`);
    this.selectNodes = db.prepare(`SELECT * FROM node_traces WHERE episode_id ${ID_LIST}`);
    this.selectCalls = db.prepare(`SELECT * FROM llm_calls WHERE episode_id ${ID_LIST}`);
  }

  get(id: string, options: EpisodeReadOptions = {}): Episode | undefined {
    const row = this.selectOne.get(id);
    return row === undefined ? undefined : this.assemble([row], options)[0];
  }

  /**
   * Yields matching episodes in insertion order. Pages are read by rowid (keyset paging), and no
   * statement stays open between yields, so the consumer may write to the same store meanwhile.
   */
  *iterate(filter: EpisodeFilter, options: EpisodeReadOptions = {}): Generator<Episode, void, undefined> {
    const { where, params } = filterToSql(filter);
    const page = this.db.prepare<[Record<string, unknown>], EpisodeRow & { row_number: number }>(
      `SELECT rowid AS row_number, * FROM episodes WHERE ${where} AND rowid > @after ORDER BY rowid LIMIT ${PAGE_SIZE}`,
    );
    let after = 0;
    for (;;) {
      const rows = page.all({ ...params, after });
      const last = rows.at(-1);
      if (last === undefined) return;
      after = last.row_number;
      yield* this.assemble(rows, options);
    }
  }

  private assemble(rows: readonly EpisodeRow[], options: EpisodeReadOptions): Episode[] {
    const { withCalls = true } = options;
    const episodeIds = JSON.stringify(rows.map((row) => row.id));
    const tasks = new Map(this.selectTasks.all(JSON.stringify([...new Set(rows.map((row) => row.task_id))])).map((task) => [task.id, task]));
    const nodes = groupBy(this.selectNodes.all(episodeIds), (node) => node.episode_id);
    const calls = withCalls ? groupBy(this.selectCalls.all(episodeIds), (call) => call.episode_id) : new Map<string, LlmCallRow[]>();
    return rows.map((row) => {
      const task = tasks.get(row.task_id);
      // The foreign key guarantees the task row; a miss means the file was altered outside orchrm.
      if (task === undefined) {
        throw new InvalidInputError(`stored episode ${row.id}`, [{ path: 'task_id', message: `task ${row.task_id} is missing from the tasks table` }]);
      }
      return rowsToEpisode(row, task, nodes.get(row.id) ?? [], calls.get(row.id) ?? []);
    });
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list === undefined) groups.set(key(item), [item]);
    else list.push(item);
  }
  return groups;
}
