import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { type Episode, EPISODE_SCHEMA_VERSION, EpisodeSchema, InvalidInputError, readTextLines, UserError, zodIssues } from '../core/index.js';
import type { Store } from './store.js';

export interface ImportEpisodesOptions {
  /** Files every imported episode under this run (created when missing), replacing their own runId. */
  runId?: string;
}

export interface ImportEpisodesSummary {
  imported: number;
  /** Episodes whose id, or whose run/task/sample/orchestrator/checkpoint, was already stored. */
  skipped: number;
}

/** Stop listing problems after this many; the file is refused either way. */
const MAX_REPORTED_ISSUES = 50;

/**
 * Imports episodes from a JSONL file (docs/episode-format.md), all or nothing: every line is
 * validated first, and an invalid file is refused with the line number and field of each problem
 * before anything is written; the valid file is then written in one transaction. Episodes already
 * present are skipped and counted, so importing the same file twice is harmless. Runs named by
 * the episodes (or by `runId`) are created with kind `import` when the store does not have them.
 * The store should not be written by other code while the import runs. Pass a function that
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
  store.db.exec('BEGIN IMMEDIATE');
  try {
    for await (const episode of readEpisodes(path)) {
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
    store.db.exec('COMMIT');
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
