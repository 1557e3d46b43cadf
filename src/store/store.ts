import Database from 'better-sqlite3';
import { type Episode, EpisodeSchema, InvalidInputError, type Pair, type PairInput, type SqliteDatabase, type SqliteStatement, type Task, type TaskInput, TaskSchema, UserError, zodIssues } from '../core/index.js';
import type { StoredTextOptions } from './episode-to-rows.js';
import { filterToSql, parseListOptions, type EpisodeFilter, type EpisodeListOptions } from './episode-filter.js';
import { EpisodeReader, type EpisodeReadOptions } from './episode-reader.js';
import { iterateEpisodeOutlines, type EpisodeOutline } from './episode-outline.js';
import { rowToSummary, SUMMARY_COLUMNS, type EpisodeSummary, type SummaryRow } from './episode-summary.js';
import { DuplicateEpisodeError } from './duplicate-episode-error.js';
import { EpisodeWriter } from './episode-writer.js';
import { PairStore, type PairDatasetInput, type PairDatasetRecord, type PairGroupSummary } from './pair-store.js';
import type { PairFilter } from './pair-filter.js';
import { ResultStore, type ResultInput, type ResultRecord } from './result-store.js';
import { RunLeases, type RunLeaseHolder } from './run-lease.js';
import { RunStore, type RunInput, type RunRecord, type RunStatus } from './run-store.js';
import { getTask, TaskIndex } from './task-index.js';
import { TaskWriter } from './task-writer.js';

/** The resume key: at most one episode per run, task, sample and orchestrator checkpoint. */
export interface EpisodeKey {
  runId: string;
  taskId: string;
  sampleIndex: number;
  orchestrator: string;
  checkpoint?: string;
}

/**
 * The artifact store over one SQLite file. Open it with `openStore`. Every episode is written in
 * one transaction, so a killed process loses at most the episodes it had not committed.
 * `db` is exposed for the stages that own the other tables (pairs, models, results, checkpoints).
 */
export class Store {
  private readonly reader: EpisodeReader;
  private readonly tasks: TaskWriter;
  private readonly writer: EpisodeWriter | undefined;
  private readonly runs: RunStore;
  private readonly pairs: PairStore;
  private readonly selectByKey: SqliteStatement<[Record<string, unknown>]>;
  private readonly selectById: SqliteStatement<[string]>;
  private tasksIndexed: TaskIndex | undefined;

  /** @internal Use `openStore`. */
  constructor(
    readonly db: SqliteDatabase,
    readonly path: string,
    readonly options: StoredTextOptions & { readonly: boolean; now: () => Date },
  ) {
    this.reader = new EpisodeReader(db);
    this.tasks = new TaskWriter(db);
    this.runs = new RunStore(db, options.now);
    this.pairs = new PairStore(db, options.now, options.readonly);
    this.selectByKey = db.prepare(
      `SELECT 1 FROM episodes WHERE run_id = @runId AND task_id = @taskId AND sample_index = @sampleIndex
       AND orchestrator = @orchestrator AND ifnull(checkpoint, x'') = ifnull(@checkpoint, x'')`,
    );
    this.selectById = db.prepare('SELECT 1 FROM episodes WHERE id = ?');
    // Insert statements cannot be prepared on a read-only connection.
    this.writer = options.readonly ? undefined : new EpisodeWriter(db, this.tasks, options);
  }

  /**
   * Validates and writes an episode with all its node traces and calls, in one transaction. With
   * `replaceServerFailure`, a stored episode of the same id that a server failure ended
   * (`server_error`) is deleted in the same transaction: a resumed collection redoing it.
   */
  insertEpisode(episode: Episode, options: { replaceServerFailure?: boolean } = {}): void {
    const writer = this.requireWriter();
    const parsed = EpisodeSchema.safeParse(episode);
    if (!parsed.success) throw new InvalidInputError(`episode ${episode.id}`, zodIssues(parsed.error));
    try {
      this.db
        .transaction(() => {
          if (options.replaceServerFailure === true) writer.deleteServerFailure(parsed.data.id);
          writer.write(parsed.data);
        })
        .immediate();
    } catch (error) {
      throw describeConflict(error, parsed.data);
    }
  }

  /** Reads one episode back exactly as inserted (prompts only when kept, long texts truncated). */
  getEpisode(id: string, options?: EpisodeReadOptions): Episode | undefined {
    return this.reader.get(id, options);
  }

  /** Summaries of matching episodes in insertion order, one page at a time. */
  listEpisodes(options: EpisodeListOptions = {}): EpisodeSummary[] {
    const { filter, limit, offset } = parseListOptions(options);
    const { where, params } = filterToSql(filter);
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM episodes WHERE ${where} ORDER BY rowid LIMIT @limit OFFSET @offset`;
    return this.db.prepare<[Record<string, unknown>], SummaryRow>(sql).all({ ...params, limit, offset }).map(rowToSummary);
  }

  /**
   * Every matching episode, in insertion order, in constant memory (a page at a time); the
   * consumer may write to the store between items.
   * @example for (const episode of store.iterateEpisodes({ runId })) mine(episode);
   */
  iterateEpisodes(filter: EpisodeFilter = {}, options?: EpisodeReadOptions): Generator<Episode, void, undefined> {
    return this.reader.iterate(filter, options);
  }

  /**
   * Every matching episode as an outline (no calls, node outputs or params), in insertion order,
   * a page at a time: what pair mining reads, several times faster than `iterateEpisodes`.
   */
  iterateEpisodeOutlines(filter: EpisodeFilter = {}): Generator<EpisodeOutline, void, undefined> {
    return iterateEpisodeOutlines(this.db, filter);
  }

  countEpisodes(filter: EpisodeFilter = {}): number {
    const { where, params } = filterToSql(filter);
    return this.db.prepare<[Record<string, string>], { count: number }>(`SELECT count(*) AS count FROM episodes WHERE ${where}`).get(params)
      ?.count as number;
  }

  /** Whether this run already stored this sample, so a resumed run can skip it. */
  hasEpisode(key: EpisodeKey): boolean {
    const { runId, taskId, sampleIndex, orchestrator, checkpoint = null } = key;
    return this.selectByKey.get({ runId, taskId, sampleIndex, orchestrator, checkpoint }) !== undefined;
  }

  hasEpisodeId(id: string): boolean {
    return this.selectById.get(id) !== undefined;
  }

  /** Records a new run with status `running`. */
  createRun(input: RunInput): RunRecord {
    return this.runs.create(input);
  }

  finishRun(id: string, status: Exclude<RunStatus, 'running'>): void {
    this.runs.finish(id, status);
  }

  /** The newest run of a kind that has not completed, e.g. a collection killed mid-way. */
  latestUnfinishedRun(kind: string): RunRecord | undefined {
    return this.runs.latestUnfinished(kind);
  }

  getRun(id: string): RunRecord | undefined {
    return this.runs.get(id);
  }

  /** The runs that collected the episodes a pair dataset was mined from (what a model trained on it learned from). */
  runsOfPairDataset(datasetId: string): RunRecord[] {
    return this.runs.ofPairDataset(datasetId);
  }

  /** Inserts or updates tasks in one transaction; stored episodes keep the task they ran on. */
  upsertTasks(tasks: readonly TaskInput[]): void {
    const parsed: Task[] = tasks.map((task, index) => {
      const result = TaskSchema.safeParse(task);
      if (!result.success) throw new InvalidInputError(`task [${index}]`, zodIssues(result.error));
      return result.data;
    });
    this.requireWriter();
    this.db.transaction(() => parsed.forEach((task) => this.tasks.upsert(task))).immediate();
  }

  /**
   * Every stored task's id, suite and question, in insertion order, one row at a time: the texts a
   * collection was given, run or not (`collect` stores its tasks before it runs them).
   */
  *iterateTaskTexts(): Generator<{ id: string; suite: string; question: string }, void, undefined> {
    yield* this.db.prepare<[], { id: string; suite: string; question: string }>('SELECT id, suite, question FROM tasks ORDER BY rowid').iterate();
  }

  /** A stored task by id, or undefined. */
  getTask(id: string): Task | undefined {
    return getTask(this.db, id);
  }

  /**
   * The stored tasks with how their episodes fared, to list a page at a time by family, split,
   * outcome and text (`TaskIndex`). Built on the first call (one pass over the episodes), then
   * kept: its counts are those of that moment.
   * @example store.taskIndex().list({ outcome: 'none-correct', limit: 20 })
   */
  taskIndex(): TaskIndex {
    return (this.tasksIndexed ??= new TaskIndex(this.db));
  }

  /** Validates and writes pairs in one transaction; returns how many were written. */
  insertPairs(pairs: readonly PairInput[]): number {
    this.requireWriter();
    return this.pairs.insert(pairs);
  }

  /**
   * Every matching pair, in insertion order, in constant memory (a page at a time).
   * @example for (const pair of store.iteratePairs({ datasetId, split: 'train' })) write(pair);
   */
  iteratePairs(filter: PairFilter = {}): Generator<Pair, void, undefined> {
    return this.pairs.iterate(filter);
  }

  countPairs(filter: PairFilter = {}): number {
    return this.pairs.count(filter);
  }

  /** Deletes a pair dataset (its pairs and its record); returns how many pairs were deleted. */
  deletePairs(datasetId: string): number {
    this.requireWriter();
    return this.pairs.delete(datasetId);
  }

  /** Pair counts per source and split with how winners' outcomes compare to losers' (`orchrm pairs stats`). */
  summarizePairs(filter: PairFilter = {}): PairGroupSummary[] {
    return this.pairs.summarize(filter);
  }

  /** Records (or replaces) how a pair dataset was made: its configuration and its report. */
  savePairDataset(input: PairDatasetInput): void {
    this.requireWriter();
    this.pairs.saveDataset(input);
  }

  /** Every pair dataset record, oldest first. */
  listPairDatasets(): PairDatasetRecord[] {
    return this.pairs.listDatasets();
  }

  /** Records an experiment result (e.g. a Best-of-N table) in `results`; returns its id. */
  insertResult(input: ResultInput): string {
    this.requireWriter();
    return new ResultStore(this.db, this.options.now).insert(input);
  }

  /**
   * Takes the lease of a run for this process, so that two processes never do the same run's work
   * at once; when another live process holds it, returns that holder instead (`RunLeases`).
   */
  acquireRunLease(runId: string): { acquired: true } | { acquired: false; holder: RunLeaseHolder } {
    this.requireWriter();
    return new RunLeases(this.db, this.options.now).acquire(runId);
  }

  /** Renews this process's lease of a run (call every `RUN_LEASE_RENEW_MS` while working). */
  renewRunLease(runId: string): void {
    new RunLeases(this.db, this.options.now).renew(runId);
  }

  /** Gives up this process's lease of a run. */
  releaseRunLease(runId: string): void {
    if (this.db.open) new RunLeases(this.db, this.options.now).release(runId);
  }

  /** Stored results, oldest first, optionally of one kind. */
  listResults(kind?: string): ResultRecord[] {
    return new ResultStore(this.db, this.options.now).list(kind);
  }

  /** Runs `work` in one immediate transaction (for the stages that write other tables). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private requireWriter(): EpisodeWriter {
    if (this.writer === undefined) throw new UserError(`store ${this.path} was opened read-only; open it without readonly to write`);
    return this.writer;
  }
}

/** Turns a resume-key conflict into an error that says which episode collided and why. */
function describeConflict(error: unknown, episode: Episode): unknown {
  if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const { name, checkpoint } = episode.orchestrator;
    return new DuplicateEpisodeError(
      `run ${episode.runId} already has sample ${episode.sampleIndex} of task ${episode.task.id} from ${name}` +
        `${checkpoint === undefined ? '' : ` checkpoint ${checkpoint}`}; check store.hasEpisode before running a sample on resume`,
      { cause: error },
    );
  }
  return error;
}
