/*
 * The SQLite connection as orchrm's public types show it. orchrm runs on better-sqlite3, whose
 * types (`@types/better-sqlite3`) are only a devDependency: a published signature that named
 * them would fail to compile for a strict consumer (TS7016, no declaration file). These
 * interfaces are the subset orchrm and its users call; a better-sqlite3 `Database` satisfies
 * them, and `store.db` is one.
 */

/** What `run` reports. */
export interface SqliteRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement (better-sqlite3 `Statement`). */
export interface SqliteStatement<Params extends unknown[] = unknown[], Row = unknown> {
  run(...params: Params): SqliteRunResult;
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
  iterate(...params: Params): IterableIterator<Row>;
}

/** A function wrapped in a transaction; `immediate` takes the write lock at once. */
export interface SqliteTransaction<Args extends unknown[], Result> {
  (...args: Args): Result;
  deferred(...args: Args): Result;
  immediate(...args: Args): Result;
  exclusive(...args: Args): Result;
}

/** An open SQLite connection (better-sqlite3 `Database`). */
export interface SqliteDatabase {
  /** The file it was opened on. */
  readonly name: string;
  readonly open: boolean;
  readonly readonly: boolean;
  readonly inTransaction: boolean;
  prepare<Params extends unknown[] = unknown[], Row = unknown>(source: string): SqliteStatement<Params, Row>;
  exec(source: string): unknown;
  /** `PRAGMA <source>`; with `simple`, the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): SqliteTransaction<Args, Result>;
  close(): unknown;
}
