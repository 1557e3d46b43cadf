import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type SqliteDatabase, UserError } from '../core/index.js';
import { assertNotNewer, migrate, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { Store } from './store.js';
import { DatabaseDamagedError, isCorruptionError } from './database-damaged-error.js';
import { guardDatabase, lockHolders } from './guard-database.js';
import { DatabaseLockedError, isBusyError } from './database-locked-error.js';

export interface StoreOptions {
  /** Open for reading only: no migration, no writes. The file must exist. @default false */
  readonly?: boolean;
  /**
   * Keep the full prompt messages of every LLM call. Prompts repeat the task and upstream answers
   * in every call, so they are most of a trace's size; responses are always kept.
   * @default false
   */
  keepPrompts?: boolean;
  /**
   * Longest prompt message, response, node output or plan text stored; longer texts keep their
   * first `maxStoredTextChars` characters plus a `[orchrm: truncated, ...]` marker.
   * @default 262144 (twice the longest response a node may request, 32,768 tokens at ~4 chars each)
   */
  maxStoredTextChars?: number;
  /**
   * How long a write waits for another process's lock before failing with DatabaseLockedError
   * (which names what may hold it). @unit milliseconds @default 30000
   */
  busyTimeoutMs?: number;
  /** Clock for run timestamps (tests inject a fixed one). @default () => new Date() */
  now?: () => Date;
}

export const DEFAULT_MAX_STORED_TEXT_CHARS = 262_144;

/**
 * How long a write waits for another writer by default: an episode commit takes milliseconds,
 * and a batch of `import` at most about a second, so only a stuck or foreign writer lasts this long.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

/**
 * Opens (creating and migrating when needed) the SQLite artifact store at `path`.
 *
 * Durability: WAL journal with `synchronous=NORMAL`. A commit appends the transaction to the WAL
 * file before returning, and the WAL is only fsynced at checkpoints. A committed transaction is
 * therefore in the operating system's hands the moment `insertEpisode` returns, and survives the
 * process being killed (SIGKILL included); only an OS crash or power loss can roll back the last
 * few commits, and even then the database stays consistent (never corrupt). That is the promise:
 * a killed run loses at most the episodes in flight. `synchronous=FULL` would fsync every commit
 * and cost a disk flush per episode for protection against power loss only.
 * @example
 * const store = openStore('orchrm.db', { keepPrompts: true });
 * store.insertEpisode(episode);
 * store.close();
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const {
    readonly = false,
    keepPrompts = false,
    maxStoredTextChars = DEFAULT_MAX_STORED_TEXT_CHARS,
    busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
    now = () => new Date(),
  } = options;
  if (!Number.isInteger(maxStoredTextChars) || maxStoredTextChars < 1) {
    throw new UserError(`maxStoredTextChars must be a positive integer, got ${maxStoredTextChars}`);
  }
  const inMemory = path === ':memory:';
  if (readonly && !inMemory && !existsSync(path)) {
    throw new UserError(`no orchrm database at ${path}; pass --db with the path of an existing database`);
  }
  if (!readonly && !inMemory) mkdirSync(dirname(path), { recursive: true });
  // better-sqlite3's own types stay out of orchrm's public signatures (see core/sqlite-database.ts).
  const db = new Database(path, { readonly, fileMustExist: readonly }) as unknown as SqliteDatabase;
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.pragma('foreign_keys = ON');
    if (readonly) {
      checkReadableVersion(db, path);
    } else {
      // Before anything is written: a damaged file is refused whole rather than written further.
      checkNotDamaged(db, path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrateOrExplain(db, path);
    }
  } catch (error) {
    const explained = explainOpenError(error, path, db, busyTimeoutMs);
    db.close();
    throw explained;
  }
  return new Store(guardDatabase(db, path, readSchemaVersion(db), busyTimeoutMs), path, { readonly, keepPrompts, maxStoredTextChars, now });
}

function checkReadableVersion(db: SqliteDatabase, path: string): void {
  const version = readSchemaVersion(db);
  assertNotNewer(version, path);
  if (version < SCHEMA_VERSION) {
    throw new UserError(
      `database ${path} has schema version ${version}, older than ${SCHEMA_VERSION}; open it once for writing (any writing command) to migrate it`,
    );
  }
}

function migrateOrExplain(db: SqliteDatabase, path: string): void {
  try {
    migrate(db, path);
  } catch (error) {
    if (!(error instanceof Database.SqliteError)) throw error;
    // Another writer holds the lock: explained as such by the caller, not as a foreign database.
    if (isBusyError(error)) throw error;
    throw new UserError(
      `could not bring ${path} to schema version ${SCHEMA_VERSION}: ${error.message}; is it a database written by another program?`,
      { cause: error },
    );
  }
}

/**
 * `PRAGMA quick_check`: every page and b-tree of the file, without cross-checking indexes (about
 * 5 ms per MB here), so zeroed or overwritten pages are found before a write makes them worse.
 */
function checkNotDamaged(db: SqliteDatabase, path: string): void {
  let result: unknown;
  try {
    result = db.pragma('quick_check(1)', { simple: true });
  } catch (error) {
    if (isCorruptionError(error)) throw new DatabaseDamagedError(path, error.message, readSchemaVersion(db), { cause: error });
    throw error;
  }
  if (result !== 'ok') throw new DatabaseDamagedError(path, `quick_check found: ${String(result)}`, readSchemaVersion(db));
}

function explainOpenError(error: unknown, path: string, db: SqliteDatabase, busyTimeoutMs: number): unknown {
  if (isCorruptionError(error)) return new DatabaseDamagedError(path, error.message, undefined, { cause: error });
  if (isBusyError(error)) return new DatabaseLockedError(path, busyTimeoutMs, lockHolders(db, path), { cause: error });
  if (error instanceof Database.SqliteError && error.code === 'SQLITE_NOTADB') {
    return new UserError(`${path} is not an SQLite database; pass --db with an orchrm database or a new file name`, { cause: error });
  }
  return error;
}
