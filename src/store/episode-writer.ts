import { type Episode, type SqliteDatabase, type SqliteStatement, UserError } from '../core/index.js';
import { DuplicateEpisodeError } from './duplicate-episode-error.js';
import { episodeToRows, type StoredTextOptions } from './episode-to-rows.js';
import type { EpisodeRow, LlmCallRow, NodeTraceRow } from './row-types.js';
import type { TaskWriter } from './task-writer.js';

/** Insert statement for every column of a row type, bound by name. */
function insertStatement<Row extends object>(db: SqliteDatabase, table: string, columns: readonly (keyof Row & string)[]) {
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;
  return db.prepare<[Row]>(sql);
}

const EPISODE_COLUMNS: readonly (keyof EpisodeRow & string)[] = [
  'id', 'run_id', 'task_id', 'task_snapshot', 'sample_index', 'orchestrator', 'checkpoint', 'checkpoint_step', 'seed',
  'status', 'reason', 'plan_format', 'plan_text', 'plan', 'diagnostics', 'warnings', 'final_answer', 'correct', 'grade',
  'orchestrator_prompt_tokens', 'orchestrator_completion_tokens', 'orchestrator_total_tokens',
  'execution_prompt_tokens', 'execution_completion_tokens', 'execution_total_tokens',
  'verification_prompt_tokens', 'verification_completion_tokens', 'verification_total_tokens',
  'wall_time_ms', 'created_at',
];
const NODE_COLUMNS: readonly (keyof NodeTraceRow & string)[] = [
  'episode_id', 'position', 'node_id', 'agent', 'input', 'params', 'status', 'reason', 'output', 'answer', 'artifacts',
  'prompt_tokens', 'completion_tokens', 'total_tokens', 'started_after_ms', 'latency_ms',
];
const CALL_COLUMNS: readonly (keyof LlmCallRow & string)[] = [
  'episode_id', 'node_position', 'position', 'call_index', 'role', 'slot', 'model', 'messages', 'request_hash', 'response',
  'prompt_tokens', 'completion_tokens', 'total_tokens', 'usage_source', 'latency_ms', 'attempts', 'cached', 'temperature',
  'sample_index', 'error', 'attempt_errors', 'reasoning',
];

/** Writes episodes with their node traces and calls. The caller owns the transaction. */
export class EpisodeWriter {
  private readonly runExists: SqliteStatement<[string], { found: number }>;
  private readonly episodeExists: SqliteStatement<[string], { found: number }>;
  private readonly insertEpisode: SqliteStatement<[EpisodeRow]>;
  private readonly insertNode: SqliteStatement<[NodeTraceRow]>;
  private readonly insertCall: SqliteStatement<[LlmCallRow]>;
  private readonly deleteServerFailed: SqliteStatement<[string]>;

  constructor(
    db: SqliteDatabase,
    private readonly tasks: TaskWriter,
    private readonly options: StoredTextOptions,
  ) {
    this.runExists = db.prepare('SELECT 1 AS found FROM runs WHERE id = ?');
    this.episodeExists = db.prepare('SELECT 1 AS found FROM episodes WHERE id = ?');
    this.insertEpisode = insertStatement<EpisodeRow>(db, 'episodes', EPISODE_COLUMNS);
    this.insertNode = insertStatement<NodeTraceRow>(db, 'node_traces', NODE_COLUMNS);
    this.insertCall = insertStatement<LlmCallRow>(db, 'llm_calls', CALL_COLUMNS);
    // Its node traces and calls go with it (ON DELETE CASCADE).
    this.deleteServerFailed = db.prepare("DELETE FROM episodes WHERE id = ? AND status = 'server_error'");
  }

  /** Deletes the stored episode with this id if a server failure ended it; must run inside a transaction. */
  deleteServerFailure(id: string): void {
    this.deleteServerFailed.run(id);
  }

  /** Inserts one episode; must run inside a transaction so its rows commit together. */
  write(episode: Episode): void {
    if (this.episodeExists.get(episode.id) !== undefined) {
      throw new DuplicateEpisodeError(`episode ${episode.id} is already stored; episode ids must be unique`);
    }
    if (episode.runId !== undefined && this.runExists.get(episode.runId) === undefined) {
      throw new UserError(`episode ${episode.id} names run ${episode.runId}, which is not in the store; create it first with store.createRun`);
    }
    const rows = episodeToRows(episode, this.tasks.ensure(episode.task), this.options);
    this.insertEpisode.run(rows.episode);
    for (const node of rows.nodes) this.insertNode.run(node);
    for (const call of rows.calls) this.insertCall.run(call);
  }
}
