import { stableId } from '../core/index.js';
import type { Store } from '../store/index.js';

/** A checkpoint row of the store's `checkpoints` table. */
export interface StoredCheckpoint {
  id: string;
  orchestrator: string;
  name: string;
  step: number;
  payload: unknown;
  createdAt: string;
}

/**
 * Writes a checkpoint into the store's `checkpoints` table (schema v1), replacing an earlier
 * row with the same orchestrator, name and step. The payload is the checkpoint's JSON, the same
 * as its file, so `loadStoredCheckpoint` can hand it to the policy's own file reader.
 *
 * @example
 * saveCheckpointToStore(store, { orchestrator: 'sim-orchestrator', name: 'grpo-rm', step: 40, payload: checkpointToFile(checkpoint) });
 */
export function saveCheckpointToStore(store: Store, input: { orchestrator: string; name: string; step: number; payload: unknown; now?: Date }): StoredCheckpoint {
  const id = stableId('ckpt', input.orchestrator, input.name, input.step);
  const createdAt = (input.now ?? new Date()).toISOString();
  store.transaction(() =>
    store.db
      .prepare('INSERT OR REPLACE INTO checkpoints (id, orchestrator, step, payload, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, input.orchestrator, input.step, JSON.stringify({ name: input.name, checkpoint: input.payload }), createdAt),
  );
  return { id, orchestrator: input.orchestrator, name: input.name, step: input.step, payload: input.payload, createdAt };
}

interface CheckpointRow {
  id: string;
  orchestrator: string;
  step: number;
  payload: string;
  created_at: string;
}

/** Stored checkpoints of an orchestrator, by name when given, oldest step first. */
export function listStoredCheckpoints(store: Store, filter: { orchestrator: string; name?: string }): StoredCheckpoint[] {
  const rows = store.db.prepare<[string], CheckpointRow>('SELECT * FROM checkpoints WHERE orchestrator = ? ORDER BY step, created_at').all(filter.orchestrator);
  return rows
    .map((row) => {
      const payload = JSON.parse(row.payload) as { name: string; checkpoint: unknown };
      return { id: row.id, orchestrator: row.orchestrator, name: payload.name, step: row.step, payload: payload.checkpoint, createdAt: row.created_at };
    })
    .filter((checkpoint) => filter.name === undefined || checkpoint.name === filter.name);
}
