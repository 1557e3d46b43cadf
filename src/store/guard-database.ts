import type { SqliteDatabase, SqliteStatement } from '../core/index.js';
import { DatabaseDamagedError, isCorruptionError } from './database-damaged-error.js';
import { DatabaseLockedError, isBusyError, processesWithFileOpen, type LockHolders } from './database-locked-error.js';

const STATEMENT_CALLS = new Set<PropertyKey>(['run', 'get', 'all']);
const DATABASE_CALLS = new Set<PropertyKey>(['exec', 'pragma']);

/**
 * The connection with every SQLite corruption error turned into a DatabaseDamagedError naming
 * the file and how to recover, wherever it surfaces (a read deep in `pairs mine`, an iterator
 * half-way through an export), and every lock that outlasted the busy timeout into a
 * DatabaseLockedError naming what may hold it. Other errors pass unchanged. A Proxy rather than a wrapper class,
 * so every statement, iterator and transaction orchrm's modules create is covered.
 */
export function guardDatabase(db: SqliteDatabase, path: string, schemaVersion: number, busyTimeoutMs: number): SqliteDatabase {
  const explain = (error: unknown): unknown => {
    if (isCorruptionError(error)) return new DatabaseDamagedError(path, error.message, schemaVersion, { cause: error });
    if (isBusyError(error)) return new DatabaseLockedError(path, busyTimeoutMs, lockHolders(db, path), { cause: error });
    return error;
  };
  const guarded = <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return call(...args);
      } catch (error) {
        throw explain(error);
      }
    };
  const guardIterator = <T>(iterator: IterableIterator<T>): IterableIterator<T> => {
    const next = guarded(() => iterator.next());
    const wrapped: IterableIterator<T> = {
      next,
      return: (value?: unknown) => iterator.return?.(value) ?? { done: true, value: undefined },
      [Symbol.iterator]: () => wrapped,
    };
    return wrapped;
  };
  const guardStatement = <Params extends unknown[], Row>(statement: SqliteStatement<Params, Row>): SqliteStatement<Params, Row> =>
    new Proxy(statement, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        // better-sqlite3's methods check their receiver: always call them on the real statement.
        const bound = (value as (...args: unknown[]) => unknown).bind(target);
        if (STATEMENT_CALLS.has(property)) return guarded(bound);
        if (property === 'iterate') return (...args: unknown[]) => guardIterator(guarded(bound)(...args) as IterableIterator<Row>);
        return bound;
      },
    });
  return new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'prepare') return (source: string) => guardStatement(guarded(bound)(source) as SqliteStatement);
      if (DATABASE_CALLS.has(property)) return guarded(bound);
      if (property === 'transaction') {
        return (fn: (...args: unknown[]) => unknown) => {
          const transaction = bound(fn) as Record<string, (...args: unknown[]) => unknown> & ((...args: unknown[]) => unknown);
          const wrapped = guarded((...args: unknown[]) => transaction(...args)) as Record<string, unknown> & ((...args: unknown[]) => unknown);
          for (const mode of ['deferred', 'immediate', 'exclusive'] as const) wrapped[mode] = guarded((...args: unknown[]) => transaction[mode]!(...args));
          return wrapped;
        };
      }
      return bound;
    },
  });
}

/** What may hold the lock: runs still marked running (a read, which WAL allows beside a writer) and the processes with the file open. */
export function lockHolders(db: SqliteDatabase, path: string): LockHolders {
  let runningRuns: LockHolders['runningRuns'] = [];
  try {
    runningRuns = db
      .prepare<[], { id: string; kind: string; createdAt: string }>("SELECT id, kind, created_at AS createdAt FROM runs WHERE status = 'running' ORDER BY created_at DESC LIMIT 5")
      .all();
  } catch {
    // A database too new or too old to have the runs table: the processes are all we can name.
  }
  return { runningRuns, processes: path === ':memory:' ? [] : processesWithFileOpen(path) };
}
