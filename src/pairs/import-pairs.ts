import { basename } from 'node:path';
import { InvalidInputError, type Pair, type PairSplit, readTextLines, stableId, UserError, zodIssues } from '../core/index.js';
import type { Store } from '../store/index.js';
import { assignSplit } from './assign-split.js';
import { PublishedPairSchema, type PublishedPair } from './pair-formats.js';

export interface ImportPairsOptions {
  /** @default `imported-<file name>` */
  datasetId?: string;
  /** Put every pair in this split (the published files come split already). @default assigned by task as mining does */
  split?: PairSplit;
  /** Seed of the split assignment when `split` is not given. @default 0 */
  seed?: number;
}

export interface ImportPairsSummary {
  datasetId: string;
  imported: number;
  /** Lines identical to an earlier line of the file. */
  duplicates: number;
}

const MAX_REPORTED_ISSUES = 50;
const DEFAULT_SPLITS = { train: 0.8, validation: 0.1, test: 0.1 };

/**
 * Imports pairs in the published OrchRM layout (`{input, chosen, rejected, source}` per JSONL
 * line), all or nothing: every line is validated before anything is written. Source names are
 * kept as given (`correct-over-incorrect` stays so). The task id is a hash of `input`, so pairs
 * of one question share a task and never straddle splits. Re-importing replaces the dataset.
 * Pass a function that opens the store to have it opened only once the file is found valid.
 * A file without pairs is refused.
 * @example await importPairs(store, 'hotpotqa-train.jsonl', { split: 'train', datasetId: 'hotpotqa' });
 */
export async function importPairs(storeOrOpen: Store | (() => Store), path: string, options: ImportPairsOptions = {}): Promise<ImportPairsSummary> {
  const datasetId = options.datasetId ?? `imported-${basename(path)}`;
  const pairs = new Map<string, Pair>();
  const issues: { path: string; message: string }[] = [];
  let duplicates = 0;
  let lineNumber = 0;
  try {
    for await (const line of readTextLines(path)) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const parsed = parseLine(line);
      if (!parsed.success) {
        const lineIssues = parsed.issues.map((issue) => ({ path: `line ${lineNumber}: ${issue.path || '(root)'}`, message: issue.message }));
        issues.push(...lineIssues.slice(0, MAX_REPORTED_ISSUES - issues.length));
        continue;
      }
      const { input, chosen, rejected, source } = parsed.data;
      const id = stableId('pair', datasetId, input, chosen, rejected, source);
      if (pairs.has(id)) {
        duplicates += 1;
        continue;
      }
      const taskId = stableId('task', input);
      pairs.set(id, {
        id,
        datasetId,
        taskId,
        question: input,
        winner: { planText: chosen },
        loser: { planText: rejected },
        source,
        weight: 1,
        evidence: { importedFrom: basename(path), line: lineNumber },
        split: options.split ?? assignSplit(taskId, options.seed ?? 0, DEFAULT_SPLITS),
      });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}; check the path of the JSONL file`, { cause: error });
  }
  const hint = 'nothing was imported; each line must be {"input", "chosen", "rejected", "source"}';
  if (issues.length > 0) throw new InvalidInputError(path, issues, hint);
  if (pairs.size === 0) throw new InvalidInputError(path, [{ path: '(file)', message: 'holds no pairs (it is empty or only blank lines)' }], hint);
  // Opened only now, so a refused file leaves no new database behind.
  const store = typeof storeOrOpen === 'function' ? storeOrOpen() : storeOrOpen;
  store.transaction(() => {
    store.deletePairs(datasetId);
    store.insertPairs([...pairs.values()]);
    store.savePairDataset({ id: datasetId, kind: 'imported', config: { file: path, ...options }, report: { imported: pairs.size, duplicates } });
  });
  return { datasetId, imported: pairs.size, duplicates };
}

function parseLine(line: string): { success: true; data: PublishedPair } | { success: false; issues: { path: string; message: string }[] } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { success: false, issues: [{ path: '', message: `not valid JSON (${(error as Error).message})` }] };
  }
  const parsed = PublishedPairSchema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, issues: zodIssues(parsed.error) };
}
