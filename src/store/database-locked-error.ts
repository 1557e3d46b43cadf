import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { UserError } from '../core/index.js';

/** What may be holding a database's write lock: the runs marked running in it, and the processes that have the file open. */
export interface LockHolders {
  /** Runs whose status is still `running` (a live or killed collection, bon or training). */
  runningRuns: readonly { id: string; kind: string; createdAt: string }[];
  /** Other processes that have the database (or its WAL) open, with their command lines; Linux only, empty elsewhere. */
  processes: readonly { pid: number; command: string }[];
}

/**
 * Another connection held the database's write lock for longer than the store waits
 * (`busyTimeoutMs`, 30 s by default): SQLite's `SQLITE_BUSY`. Says how long it waited, what may
 * be holding the lock, and what to do.
 */
export class DatabaseLockedError extends UserError {
  constructor(
    readonly path: string,
    readonly waitedMs: number,
    readonly holders: LockHolders,
    options?: { cause?: unknown },
  ) {
    const processes = holders.processes.map((process) => `pid ${process.pid} (${process.command})`);
    const runs = holders.runningRuns.map((run) => `${run.kind} run ${run.id} (started ${run.createdAt})`);
    const known = [
      ...(processes.length > 0 ? [`processes with it open: ${processes.join(', ')}`] : []),
      ...(runs.length > 0 ? [`runs it marks as running: ${runs.join(', ')}`] : []),
    ];
    super(
      `${path} stayed locked by another writer for ${(waitedMs / 1000).toFixed(0)} s, so orchrm gave up writing to it` +
        `${known.length > 0 ? `; ${known.join('; ')}` : ''}. ` +
        `Wait for that process to finish (an \`orchrm import\` of a large file, another command writing the same --db, a sqlite3 shell with an open transaction) or stop it, then run this command again; what was committed is kept.`,
      options,
    );
  }
}

/** SQLITE_BUSY and its extended codes. */
export function isBusyError(error: unknown): boolean {
  return error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

/**
 * The processes other than this one that have `path` (or its `-wal`/`-shm` files) open, read from
 * /proc (Linux). Best effort: an empty list where /proc is absent or unreadable.
 */
export function processesWithFileOpen(path: string): { pid: number; command: string }[] {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return [];
  }
  const files = new Set([target, `${target}-wal`, `${target}-shm`]);
  const found: { pid: number; command: string }[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const open = readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return files.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
        } catch {
          return false;
        }
      });
      if (!open) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((part) => part !== '').join(' ');
      found.push({ pid, command: command.length > 200 ? `${command.slice(0, 200)}...` : command });
    } catch {
      // The process ended, or is not ours to read.
    }
  }
  return found;
}
