import { type SqliteDatabase, type SqliteStatement, stableStringify, type Task } from '../core/index.js';
import { taskToRow } from './episode-to-rows.js';
import type { TaskRow } from './row-types.js';
import { rowToTask } from './rows-to-episode.js';

/**
 * Keeps one row per task id while every episode still reads back the exact task it was run on:
 * an episode whose task differs from the shared row carries its own snapshot.
 */
export class TaskWriter {
  private readonly select: SqliteStatement<[string], TaskRow>;
  private readonly insert: SqliteStatement<[TaskRow]>;
  private readonly update: SqliteStatement<[TaskRow]>;
  private readonly freezeSnapshots: SqliteStatement<[{ id: string; snapshot: string }]>;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare('SELECT * FROM tasks WHERE id = ?');
    this.insert = db.prepare(
      'INSERT INTO tasks (id, suite, question, answer, aliases, metadata) VALUES (@id, @suite, @question, @answer, @aliases, @metadata)',
    );
    this.update = db.prepare(
      'UPDATE tasks SET suite = @suite, question = @question, answer = @answer, aliases = @aliases, metadata = @metadata WHERE id = @id',
    );
    this.freezeSnapshots = db.prepare('UPDATE episodes SET task_snapshot = @snapshot WHERE task_id = @id AND task_snapshot IS NULL');
  }

  /** Inserts the task if its id is new; returns the snapshot an episode must keep (null when the row matches). */
  ensure(task: Task): string | null {
    const row = this.select.get(task.id);
    if (row === undefined) {
      this.insert.run(taskToRow(task));
      return null;
    }
    const text = stableStringify(task);
    return stableStringify(rowToTask(row)) === text ? null : text;
  }

  /** Inserts or replaces a task; episodes that read the old row keep it as their snapshot. */
  upsert(task: Task): void {
    const row = this.select.get(task.id);
    if (row === undefined) {
      this.insert.run(taskToRow(task));
      return;
    }
    const old = stableStringify(rowToTask(row));
    if (old === stableStringify(task)) return;
    this.freezeSnapshots.run({ id: task.id, snapshot: old });
    this.update.run(taskToRow(task));
  }
}
