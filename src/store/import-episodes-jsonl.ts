import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Episode, EPISODE_SCHEMA_VERSION, EpisodeSchema, InvalidInputError, readTextLines, UserError, zodIssues } from '../core/index.js';
import type { Store } from './store.js';

export interface ImportEpisodesOptions {
  /** Files every imported episode under this run (created when missing), replacing their own runId. */
  runId?: string;
  /** Most episodes written in one transaction (a batch also ends after `BATCH_MAX_MS`). @default 500 */
  batchSize?: number;
}

/** Longest a batch holds the write lock. @unit milliseconds */
const BATCH_MAX_MS = 500;
/**
 * Pause between batches with the lock free: a writer waiting on it (a collect committing an
 * episode) retries every 100 ms or sooner (SQLite's busy handler), so it gets its turn.
 * @unit milliseconds
 */
const BATCH_PAUSE_MS = 100;

export interface ImportEpisodesSummary {
  imported: number;
  /** Episodes whose id, or whose run/task/sample/orchestrator/checkpoint, was already stored. */
  skipped: number;
}

/** Stop listing problems after this many; the file is refused either way. */
const MAX_REPORTED_ISSUES = 50;

/**
 * Imports episodes from a JSONL file (docs/episode-format.md): every line is validated first, and
 * an invalid file is refused with the line number and field of each problem before anything is
 * written. The valid file is then written in batches (at most `batchSize` episodes or half a
 * second each, one transaction each, with the lock free for 100 ms between them), so another
 * process writing the same database (a collect) goes on meanwhile. Episodes already present are
 * skipped and counted, so importing the same file twice is harmless, and a killed import is
 * finished by importing the file again. Runs named by
 * the episodes (or by `runId`) are created with kind `import` when the store does not have them.
 * Pass a function that
 * opens the store to have it opened only once the file is found valid. An empty file is refused.
 * @example const { imported, skipped } = await importEpisodesJsonl(store, 'episodes.jsonl');
 */
export async function importEpisodesJsonl(
  storeOrOpen: Store | (() => Store),
  path: string,
  options: ImportEpisodesOptions = {},
): Promise<ImportEpisodesSummary> {
  await validateFile(path);
  // Opened only now, so a refused file leaves no new database behind.
  const store = typeof storeOrOpen === 'function' ? storeOrOpen() : storeOrOpen;
  const summary = { imported: 0, skipped: 0 };
  const batchSize = options.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new UserError(`batchSize must be a positive integer, got ${batchSize}`);
  let inBatch = 0;
  let batchStartedAt = 0;
  try {
    for await (const episode of readEpisodes(path)) {
      if (inBatch > 0 && (inBatch >= batchSize || performance.now() - batchStartedAt >= BATCH_MAX_MS)) {
        store.db.exec('COMMIT');
        inBatch = 0;
        await sleep(BATCH_PAUSE_MS);
      }
      if (inBatch === 0) {
        store.db.exec('BEGIN IMMEDIATE');
        batchStartedAt = performance.now();
      }
      inBatch += 1;
      const runId = options.runId ?? episode.runId;
      const placed: Episode = runId === undefined ? episode : { ...episode, runId };
      if (isStored(store, placed)) {
        summary.skipped += 1;
        continue;
      }
      if (runId !== undefined && store.getRun(runId) === undefined) store.createRun({ id: runId, kind: 'import', config: { file: path } });
      store.insertEpisode(placed);
      summary.imported += 1;
    }
    if (store.db.inTransaction) store.db.exec('COMMIT');
  } catch (error) {
    if (store.db.inTransaction) store.db.exec('ROLLBACK');
    throw error;
  }
  return summary;
}

function isStored(store: Store, episode: Episode): boolean {
  if (store.hasEpisodeId(episode.id)) return true;
  if (episode.runId === undefined) return false;
  const { name: orchestrator, checkpoint } = episode.orchestrator;
  return store.hasEpisode({ runId: episode.runId, taskId: episode.task.id, sampleIndex: episode.sampleIndex, orchestrator, checkpoint });
}

async function validateFile(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch (error) {
    throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}; check the path of the JSONL file`, { cause: error });
  }
  const issues: { path: string; message: string }[] = [];
  let problemLines = 0;
  let records = 0;
  for await (const result of readLines(path)) {
    records += 1;
    if (result.issues.length === 0) continue;
    problemLines += 1;
    issues.push(...lineIssues(result).slice(0, MAX_REPORTED_ISSUES - issues.length));
  }
  if (issues.length > 0) {
    throw new InvalidInputError(path, issues, `${problemLines} line(s) invalid; nothing was imported. Fix them (see docs/episode-format.md) and import again.`);
  }
  if (records === 0) {
    throw new InvalidInputError(path, [{ path: '(file)', message: 'holds no episodes (it is empty or only blank lines)' }], 'nothing was imported; write one episode JSON object per line (docs/episode-format.md)');
  }
}

interface LineResult {
  lineNumber: number;
  issues: { path: string; message: string }[];
  episode?: Episode;
}

/** Issues of one line, located as `line 12: nodes[0].status`. */
function lineIssues(result: LineResult) {
  return result.issues.map((issue) => ({ path: `line ${result.lineNumber}: ${issue.path || '(root)'}`, message: issue.message }));
}

async function* readLines(path: string): AsyncGenerator<LineResult> {
  let lineNumber = 0;
  for await (const line of readTextLines(path)) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    yield { lineNumber, ...parseLine(line) };
  }
}

async function* readEpisodes(path: string): AsyncGenerator<Episode> {
  for await (const result of readLines(path)) {
    // validateFile passed, so only a file changed since then fails here; the transaction rolls back.
    if (result.episode === undefined) throw new InvalidInputError(path, lineIssues(result), 'the file changed during the import');
    yield result.episode;
  }
}

function parseLine(line: string): Omit<LineResult, 'lineNumber'> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { issues: [{ path: '', message: `not valid JSON (${(error as Error).message})` }] };
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > EPISODE_SCHEMA_VERSION) {
    return { issues: [{ path: 'schemaVersion', message: `${version} is newer than this orchrm reads (${EPISODE_SCHEMA_VERSION}); upgrade orchrm` }] };
  }
  const parsed = EpisodeSchema.safeParse(value);
  return parsed.success ? { issues: [], episode: parsed.data } : { issues: zodIssues(parsed.error) };
}
