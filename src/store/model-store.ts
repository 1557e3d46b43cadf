import { z } from 'zod';
import { InvalidInputError, newId, UserError, zodIssues } from '../core/index.js';
import type { Store } from './store.js';

/** A model file to register in the `models` table. */
export const ModelInputSchema = z.strictObject({
  /** @default a new random id */
  id: z.string().min(1).optional(),
  /** Where the model file is. */
  path: z.string().min(1),
  /** What it is, e.g. `bt-linear`, `bt-mlp`. */
  kind: z.string().min(1),
  /** Anything worth finding the model by: encoder spec, data hash, seed, metrics. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type ModelInput = z.input<typeof ModelInputSchema>;

export interface ModelRecord {
  id: string;
  path: string;
  kind: string;
  metadata: Record<string, unknown>;
  createdAt: string;
}

interface ModelRow {
  id: string;
  path: string;
  kind: string;
  metadata: string;
  created_at: string;
}

/**
 * Records a trained model in the store's `models` table and returns its id; registering the
 * same id again replaces the record (a retrained model at the same id).
 *
 * @example
 * insertModel(store, { path: 'rm.safetensors', kind: 'bt-linear', metadata: { trainingDataHash } });
 */
export function insertModel(store: Store, input: ModelInput): string {
  if (store.options.readonly) throw new UserError(`store ${store.path} was opened read-only; open it without readonly to register a model`);
  const parsed = ModelInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError('model record', zodIssues(parsed.error));
  const { id = newId('model'), path, kind, metadata } = parsed.data;
  store.db
    .prepare('INSERT OR REPLACE INTO models (id, path, kind, metadata, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(id, path, kind, JSON.stringify(metadata), store.options.now().toISOString());
  return id;
}

/** Registered models, oldest first, optionally of one kind. */
export function listModels(store: Store, kind?: string): ModelRecord[] {
  const rows =
    kind === undefined
      ? store.db.prepare<[], ModelRow>('SELECT * FROM models ORDER BY created_at, rowid').all()
      : store.db.prepare<[string], ModelRow>('SELECT * FROM models WHERE kind = ? ORDER BY created_at, rowid').all(kind);
  return rows.map((row) => ({ id: row.id, path: row.path, kind: row.kind, metadata: JSON.parse(row.metadata) as Record<string, unknown>, createdAt: row.created_at }));
}
