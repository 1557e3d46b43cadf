import Database from 'better-sqlite3';
import { UserError } from '../core/index.js';

/**
 * The database file is damaged (SQLite reports `SQLITE_CORRUPT`: zeroed or overwritten pages, a
 * truncated copy). Says what is wrong and the ways out: SQLite's integrity check to see the
 * damage; salvaging the readable rows into a new file with the sqlite3 shell's `.recover` (SQLite
 * 3.29 or later, in builds with the dbpage table; Debian 12's 3.40.1 fails with "SQL logic
 * error") or its `.dump`, which stops at the first bad page with `ROLLBACK; -- due to errors`, so
 * the command commits what came before and restores the schema version orchrm reads; or a backup.
 */
export class DatabaseDamagedError extends UserError {
  constructor(
    readonly path: string,
    detail: string,
    /** The file's `user_version`, restored on the salvaged copy so orchrm opens it without migrating. */
    schemaVersion: number | undefined,
    options?: { cause?: unknown },
  ) {
    const recovered = path.endsWith('.db') ? `${path.slice(0, -3)}.recovered.db` : `${path}.recovered`;
    const version = schemaVersion === undefined || schemaVersion === 0 ? '' : `; echo "PRAGMA user_version = ${schemaVersion};"`;
    super(
      `${path} is damaged (SQLite: ${detail.replace(/\s+/g, ' ').trim()}); orchrm wrote nothing to it. ` +
        `See the damage with: sqlite3 ${path} "PRAGMA integrity_check". ` +
        `Salvage the readable rows into a new file with: (sqlite3 ${path} .dump | sed 's/^ROLLBACK; -- due to errors$/COMMIT;/'${version}) | sqlite3 ${recovered} ` +
        `(or, where your sqlite3 has it, sqlite3 ${path} .recover | sqlite3 ${recovered}), then pass --db ${recovered}; rows on the damaged pages are lost. ` +
        `Or restore ${path} from a backup.`,
      options,
    );
  }
}

/** SQLITE_CORRUPT and its extended codes (SQLITE_CORRUPT_VTAB, _SEQUENCE, _INDEX). */
export function isCorruptionError(error: unknown): error is Error & { code: string } {
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_CORRUPT');
}
