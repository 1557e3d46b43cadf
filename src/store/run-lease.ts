import { hostname } from 'node:os';
import type { SqliteDatabase } from '../core/index.js';

/** Who is working on a run: a process on a host, and when it last said it still was. */
export interface RunLeaseHolder {
  pid: number;
  host: string;
  heartbeatAt: string;
}

/** A lease whose holder has not renewed it for this long is taken over (its holder is on another host, or hung). @unit milliseconds */
export const RUN_LEASE_STALE_MS = 60_000;
/** How often a holder renews its lease. @unit milliseconds */
export const RUN_LEASE_RENEW_MS = 10_000;

/**
 * A run's lease, kept as a row of the `results` table (kind `run-lease`, id `lease:<run id>`) so
 * that no schema change is needed: its primary key makes taking it atomic. One process at a time
 * works on a run; another that would do the same work waits for it.
 */
export class RunLeases {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date,
  ) {}

  /** Takes the lease of `runId` for this process, or returns the live holder that has it. */
  acquire(runId: string): { acquired: true } | { acquired: false; holder: RunLeaseHolder } {
    const id = leaseId(runId);
    return this.db
      .transaction(() => {
        const row = this.db.prepare<[string], { payload: string }>('SELECT payload FROM results WHERE id = ?').get(id);
        if (row !== undefined) {
          const holder = JSON.parse(row.payload) as RunLeaseHolder;
          if (isAlive(holder, this.now())) return { acquired: false as const, holder };
          this.db.prepare('DELETE FROM results WHERE id = ?').run(id);
        }
        this.db
          .prepare("INSERT INTO results (id, run_id, kind, payload, created_at) VALUES (?, ?, 'run-lease', ?, ?)")
          .run(id, runId, JSON.stringify(this.self()), this.now().toISOString());
        return { acquired: true as const };
      })
      .immediate();
  }

  /** Renews this process's lease (a heartbeat). */
  renew(runId: string): void {
    this.db.prepare("UPDATE results SET payload = ? WHERE id = ? AND json_extract(payload, '$.pid') = ? AND json_extract(payload, '$.host') = ?").run(JSON.stringify(this.self()), leaseId(runId), process.pid, hostname());
  }

  /** Gives up this process's lease. */
  release(runId: string): void {
    this.db.prepare("DELETE FROM results WHERE id = ? AND json_extract(payload, '$.pid') = ? AND json_extract(payload, '$.host') = ?").run(leaseId(runId), process.pid, hostname());
  }

  private self(): RunLeaseHolder {
    return { pid: process.pid, host: hostname(), heartbeatAt: this.now().toISOString() };
  }
}

function leaseId(runId: string): string {
  return `lease:${runId}`;
}

/** A holder on this host is alive while its process is; one elsewhere while it renews its lease. */
function isAlive(holder: RunLeaseHolder, now: Date): boolean {
  if (holder.host === hostname()) {
    if (holder.pid === process.pid) return false;
    try {
      process.kill(holder.pid, 0);
      return true;
    } catch (error) {
      // EPERM: the process exists but is not ours to signal.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  return now.getTime() - Date.parse(holder.heartbeatAt) < RUN_LEASE_STALE_MS;
}
