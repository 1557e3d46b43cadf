import { z } from 'zod';
import { InvalidInputError, newId, type SqliteDatabase, zodIssues } from '../core/index.js';

/** An experiment result to keep: a JSON payload of some kind, tied to the run that made it. */
export const ResultInputSchema = z.strictObject({
  /** @default a new random id */
  id: z.string().min(1).optional(),
  runId: z.string().min(1).optional(),
  /** What the payload is, e.g. `bon`. */
  kind: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});
export type ResultInput = z.input<typeof ResultInputSchema>;

export interface ResultRecord {
  id: string;
  runId?: string;
  kind: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

interface ResultRow {
  id: string;
  run_id: string | null;
  kind: string;
  payload: string;
  created_at: string;
}

/** The `results` table: experiment outputs (Best-of-N tables, evaluations) as JSON. */
export class ResultStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date,
  ) {}

  insert(input: ResultInput): string {
    const parsed = ResultInputSchema.safeParse(input);
    if (!parsed.success) throw new InvalidInputError('result', zodIssues(parsed.error));
    const { id = newId('res'), runId, kind, payload } = parsed.data;
    this.db
      .prepare('INSERT INTO results (id, run_id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, runId ?? null, kind, JSON.stringify(payload), this.now().toISOString());
    return id;
  }

  list(kind?: string): ResultRecord[] {
    const rows =
      kind === undefined
        ? this.db.prepare<[], ResultRow>('SELECT * FROM results ORDER BY rowid').all()
        : this.db.prepare<[string], ResultRow>('SELECT * FROM results WHERE kind = ? ORDER BY rowid').all(kind);
    return rows.map((row) => ({
      id: row.id,
      ...(row.run_id !== null && { runId: row.run_id }),
      kind: row.kind,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
      createdAt: row.created_at,
    }));
  }
}
