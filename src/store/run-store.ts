import { z } from 'zod';
import { InvalidInputError, newId, type SqliteDatabase, UserError, zodIssues } from '../core/index.js';

export const RunStatusSchema = z.enum(['running', 'completed', 'failed', 'interrupted']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** What a caller says about a run it starts. */
export const RunInputSchema = z.strictObject({
  /** Chosen id, e.g. to resume a run under a known name. @default a new random id */
  id: z.string().min(1).optional(),
  /** What the run does: `collect`, `import`, `bon`, `grpo`, ... */
  kind: z.string().min(1),
  /** The run's full configuration, stored as JSON so the run can be reproduced. */
  config: z.record(z.string(), z.unknown()),
  seed: z.number().int().optional(),
  /** Version of the code that ran (package version, git commit). */
  codeVersion: z.string().optional(),
});
export type RunInput = z.input<typeof RunInputSchema>;

export interface RunRecord {
  id: string;
  kind: string;
  config: Record<string, unknown>;
  seed?: number;
  codeVersion?: string;
  status: RunStatus;
  createdAt: string;
  finishedAt?: string;
}

interface RunRow {
  id: string;
  created_at: string;
  finished_at: string | null;
  kind: string;
  config: string;
  seed: number | null;
  code_version: string | null;
  status: string;
}

/** Runs: configuration, seed, code version and status of each collection or experiment. */
export class RunStore {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date,
  ) {}

  create(input: RunInput): RunRecord {
    const parsed = RunInputSchema.safeParse(input);
    if (!parsed.success) throw new InvalidInputError('run', zodIssues(parsed.error));
    const { id = newId('run'), kind, config, seed, codeVersion } = parsed.data;
    if (this.get(id) !== undefined) throw new UserError(`run ${id} already exists; pick another id or resume it`);
    this.db
      .prepare(
        `INSERT INTO runs (id, created_at, kind, config, seed, code_version, status)
         VALUES (@id, @createdAt, @kind, @config, @seed, @codeVersion, 'running')`,
      )
      .run({ id, createdAt: this.now().toISOString(), kind, config: JSON.stringify(config), seed: seed ?? null, codeVersion: codeVersion ?? null });
    return this.get(id) as RunRecord;
  }

  /** Creates the run if its id is new (imports name runs recorded elsewhere); returns whether it did. */
  ensure(id: string, kind: string, config: Record<string, unknown>): boolean {
    if (this.get(id) !== undefined) return false;
    this.create({ id, kind, config });
    return true;
  }

  finish(id: string, status: Exclude<RunStatus, 'running'>): void {
    const parsed = RunStatusSchema.exclude(['running']).safeParse(status);
    if (!parsed.success) throw new InvalidInputError('run status', zodIssues(parsed.error));
    const result = this.db
      .prepare('UPDATE runs SET status = ?, finished_at = ? WHERE id = ?')
      .run(parsed.data, this.now().toISOString(), id);
    if (result.changes === 0) throw new UserError(`run ${id} is not in the store; check the run id`);
  }

  get(id: string): RunRecord | undefined {
    const row = this.db.prepare<[string], RunRow>('SELECT * FROM runs WHERE id = ?').get(id);
    return row === undefined ? undefined : rowToRun(row);
  }

  /** The runs whose episodes a pair dataset's pairs came from, oldest first (imported pairs have none). */
  ofPairDataset(datasetId: string): RunRecord[] {
    const rows = this.db
      .prepare<[string], RunRow>(
        `SELECT * FROM runs WHERE id IN (
           SELECT episodes.run_id FROM pairs JOIN episodes ON episodes.id IN (pairs.winner_episode_id, pairs.loser_episode_id)
           WHERE pairs.dataset_id = ?)
         ORDER BY created_at, rowid`,
      )
      .all(datasetId);
    return rows.map(rowToRun);
  }

  /** The most recently created run of a kind that has not completed (to resume it). */
  latestUnfinished(kind: string): RunRecord | undefined {
    const row = this.db
      .prepare<[string], RunRow>("SELECT * FROM runs WHERE kind = ? AND status != 'completed' ORDER BY created_at DESC, rowid DESC LIMIT 1")
      .get(kind);
    return row === undefined ? undefined : rowToRun(row);
  }
}

function rowToRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    kind: row.kind,
    config: JSON.parse(row.config) as Record<string, unknown>,
    ...(row.seed !== null && { seed: row.seed }),
    ...(row.code_version !== null && { codeVersion: row.code_version }),
    status: RunStatusSchema.parse(row.status),
    createdAt: row.created_at,
    ...(row.finished_at !== null && { finishedAt: row.finished_at }),
  };
}
