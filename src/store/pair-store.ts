import { z } from 'zod';
import { InvalidInputError, type Pair, type PairInput, PairSchema, type PairSplit, type SqliteDatabase, type SqliteStatement, SystemError, zodIssues } from '../core/index.js';
import { pairFilterToSql, type PairFilter } from './pair-filter.js';

/** How a pair dataset was made: the mining configuration (rubric included) or the import origin. */
export const PairDatasetInputSchema = z.strictObject({
  id: z.string().min(1),
  /** `mined` or `imported`. */
  kind: z.string().min(1),
  config: z.record(z.string(), z.unknown()),
  /** What the miners or the importer reported (counts, skips and why). */
  report: z.record(z.string(), z.unknown()),
});
export type PairDatasetInput = z.infer<typeof PairDatasetInputSchema>;
export interface PairDatasetRecord extends PairDatasetInput {
  createdAt: string;
}

/**
 * Pairs of one source and split with how their winners' outcomes compare to their losers'
 * (from the episodes the pairs came from; imported pairs have none).
 */
export interface PairGroupSummary {
  source: string;
  split?: PairSplit;
  pairs: number;
  /** Pairs whose two episodes were both graded. */
  graded: number;
  /** Graded pairs whose winner's outcome is at least as good as the loser's. */
  atLeastAsGood: number;
  /** Graded pairs whose two outcomes differ. */
  differing: number;
  /** Differing pairs whose winner was the correct one. */
  strictlyBetter: number;
}

interface PairRow {
  row_number: number;
  id: string;
  dataset_id: string;
  task_id: string;
  question: string;
  source: string;
  winner_episode_id: string | null;
  loser_episode_id: string | null;
  winner_text: string | null;
  loser_text: string | null;
  weight: number;
  margin: number | null;
  evidence: string;
  split: string | null;
}

/** Pairs per query when iterating; bounds memory whatever the dataset size. */
const PAGE_SIZE = 1000;

/** The pairs and pair_datasets tables (schema version 2). */
export class PairStore {
  /** Undefined on a read-only connection, where insert statements cannot be prepared. */
  private readonly insertRow: SqliteStatement<[Record<string, unknown>]> | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly now: () => Date,
    readonly: boolean,
  ) {
    this.insertRow = readonly
      ? undefined
      : db.prepare(
          // A side whose text is its episode's plan text stores NULL and reads the text back from the
          // episode: mined datasets would otherwise copy every plan into every pair it appears in.
          `INSERT INTO pairs (id, dataset_id, task_id, question, source, winner_episode_id, loser_episode_id, winner_text, loser_text,
             weight, margin, evidence, split, created_at)
           VALUES (@id, @datasetId, @taskId, @question, @source, @winnerEpisodeId, @loserEpisodeId,
             nullif(@winnerText, (SELECT plan_text FROM episodes WHERE id = @winnerEpisodeId)),
             nullif(@loserText, (SELECT plan_text FROM episodes WHERE id = @loserEpisodeId)),
             @weight, @margin, @evidence, @split, @createdAt)`,
        );
  }

  /** Validates every pair first, then writes them all in one transaction; returns how many. */
  insert(pairs: readonly PairInput[]): number {
    const insertRow = this.insertRow;
    // The Store checks for a writable connection before calling; reaching this is our bug.
    if (insertRow === undefined) throw new SystemError('PairStore.insert called on a read-only connection');
    const parsed: Pair[] = pairs.map((pair, index) => {
      const result = PairSchema.safeParse(pair);
      if (!result.success) throw new InvalidInputError(`pair [${index}]${pair.id ? ` ${pair.id}` : ''}`, zodIssues(result.error));
      return result.data;
    });
    const createdAt = this.now().toISOString();
    this.db.transaction(() => {
      for (const pair of parsed) {
        insertRow.run({
          id: pair.id,
          datasetId: pair.datasetId,
          taskId: pair.taskId,
          question: pair.question,
          source: pair.source,
          winnerEpisodeId: pair.winner.episodeId ?? null,
          loserEpisodeId: pair.loser.episodeId ?? null,
          winnerText: pair.winner.planText,
          loserText: pair.loser.planText,
          weight: pair.weight,
          margin: pair.margin ?? null,
          evidence: JSON.stringify(pair.evidence),
          split: pair.split ?? null,
          createdAt,
        });
      }
    }).immediate();
    return parsed.length;
  }

  /** Matching pairs in insertion order, a page at a time (keyset paging, no statement left open). */
  *iterate(filter: PairFilter): Generator<Pair, void, undefined> {
    const { where, params } = pairFilterToSql(filter, 'p');
    const page = this.db.prepare<[Record<string, unknown>], PairRow>(
      `SELECT p.rowid AS row_number, p.id, p.dataset_id, p.task_id, p.question, p.source, p.winner_episode_id, p.loser_episode_id,
         ifnull(p.winner_text, w.plan_text) AS winner_text, ifnull(p.loser_text, l.plan_text) AS loser_text,
         p.weight, p.margin, p.evidence, p.split
       FROM pairs p
       LEFT JOIN episodes w ON w.id = p.winner_episode_id
       LEFT JOIN episodes l ON l.id = p.loser_episode_id
       WHERE ${where} AND p.rowid > @after ORDER BY p.rowid LIMIT ${PAGE_SIZE}`,
    );
    let after = 0;
    for (;;) {
      const rows = page.all({ ...params, after });
      const last = rows.at(-1);
      if (last === undefined) return;
      after = last.row_number;
      for (const row of rows) yield rowToPair(row);
    }
  }

  count(filter: PairFilter): number {
    const { where, params } = pairFilterToSql(filter);
    return (this.db.prepare<[Record<string, string>], { count: number }>(`SELECT count(*) AS count FROM pairs WHERE ${where}`).get(params)?.count ??
      0) as number;
  }

  /** Deletes a dataset's pairs and its record; returns how many pairs went. */
  delete(datasetId: string): number {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM pair_datasets WHERE id = ?').run(datasetId);
      return this.db.prepare('DELETE FROM pairs WHERE dataset_id = ?').run(datasetId).changes;
    }).immediate();
  }

  /** Counts per source and split, with outcome agreement computed in SQL (one pass, no pair loaded). */
  summarize(filter: PairFilter): PairGroupSummary[] {
    const { where, params } = pairFilterToSql(filter, 'p');
    // A comparison with NULL (an ungraded side) is NULL, which sum() skips: only graded pairs count.
    const rows = this.db
      .prepare<[Record<string, string>], Omit<PairGroupSummary, 'split'> & { split: string | null }>(
        `SELECT p.source AS source, p.split AS split, count(*) AS pairs,
           ifnull(sum(w.correct IS NOT NULL AND l.correct IS NOT NULL), 0) AS graded,
           ifnull(sum(w.correct >= l.correct), 0) AS atLeastAsGood,
           ifnull(sum(w.correct <> l.correct), 0) AS differing,
           ifnull(sum(w.correct > l.correct), 0) AS strictlyBetter
         FROM pairs p
         LEFT JOIN episodes w ON w.id = p.winner_episode_id
         LEFT JOIN episodes l ON l.id = p.loser_episode_id
         WHERE ${where}
         GROUP BY p.source, p.split ORDER BY p.source, p.split`,
      )
      .all(params);
    return rows.map(({ split, ...rest }) => ({ ...rest, ...(split !== null && { split: split as PairSplit }) }));
  }

  /** Records (or replaces) how a dataset was made. */
  saveDataset(input: PairDatasetInput): void {
    const parsed = PairDatasetInputSchema.safeParse(input);
    if (!parsed.success) throw new InvalidInputError('pair dataset', zodIssues(parsed.error));
    const { id, kind, config, report } = parsed.data;
    this.db
      .prepare('INSERT OR REPLACE INTO pair_datasets (id, kind, config, report, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(id, kind, JSON.stringify(config), JSON.stringify(report), this.now().toISOString());
  }

  /** Every dataset record, oldest first. */
  listDatasets(): PairDatasetRecord[] {
    const rows = this.db
      .prepare<[], { id: string; kind: string; config: string; report: string; created_at: string }>(
        'SELECT id, kind, config, report, created_at FROM pair_datasets ORDER BY created_at, id',
      )
      .all();
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      config: JSON.parse(row.config) as Record<string, unknown>,
      report: JSON.parse(row.report) as Record<string, unknown>,
      createdAt: row.created_at,
    }));
  }
}

function rowToPair(row: PairRow): Pair {
  const candidate = {
    id: row.id,
    datasetId: row.dataset_id,
    taskId: row.task_id,
    question: row.question,
    winner: { planText: row.winner_text ?? '', ...(row.winner_episode_id !== null && { episodeId: row.winner_episode_id }) },
    loser: { planText: row.loser_text ?? '', ...(row.loser_episode_id !== null && { episodeId: row.loser_episode_id }) },
    source: row.source,
    weight: row.weight,
    ...(row.margin !== null && { margin: row.margin }),
    evidence: JSON.parse(row.evidence) as unknown,
    ...(row.split !== null && { split: row.split }),
  };
  const parsed = PairSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new InvalidInputError(`stored pair ${row.id}`, zodIssues(parsed.error), 'the database was edited by hand or by another program');
  }
  return parsed.data;
}
