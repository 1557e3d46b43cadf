import { type BlockArtifacts, SearchArtifactsSchema, type Task } from '../core/index.js';
import type { CorpusDocument } from './corpus.js';
import { supportingTitlesOf } from './supporting-titles.js';

/** Recall of a task's gold supporting titles among retrieved documents. */
export interface SupportRecall {
  /** Found supporting titles over all supporting titles, in [0, 1]. */
  recall: number;
  /** True when every supporting title was retrieved. */
  complete: boolean;
  supportingTitles: string[];
  found: string[];
  missing: string[];
  /** Distinct documents the recall was computed over. */
  documentsConsidered: number;
}

/** A corpus as documents, or as a prebuilt id -> title map (build it once with `corpusTitles` when scoring many nodes). */
export type CorpusTitles = readonly Pick<CorpusDocument, 'id' | 'title'>[] | ReadonlyMap<string, string>;

/**
 * Recall of supporting titles for one search node: the distinct documents its queries
 * retrieved (`SearchArtifacts.steps[].docIds`, in retrieval order, the first `k` when given)
 * are mapped to titles through the corpus, and compared with the task's supporting titles
 * (`task.metadata.supportingTitles`, set by the HotpotQA and MuSiQue loaders). Returns
 * undefined when the artifacts are not a search block's or the task has no supporting titles,
 * so callers record the metric only where gold supports exist.
 *
 * @example
 * const titles = corpusTitles(await loadCorpus('hotpot-corpus.jsonl'));
 * for (const node of episode.nodes) if (node.artifacts) supportRecall(node.artifacts, episode.task, titles)?.recall;
 */
export function supportRecall(artifacts: BlockArtifacts, task: Pick<Task, 'metadata'>, corpus: CorpusTitles, options: { k?: number } = {}): SupportRecall | undefined {
  const search = SearchArtifactsSchema.safeParse(artifacts);
  if (!search.success) return undefined;
  const supportingTitles = supportingTitlesOf(task);
  if (supportingTitles === undefined) return undefined;
  const titleOf = corpus instanceof Map ? (corpus as ReadonlyMap<string, string>) : corpusTitles(corpus as readonly Pick<CorpusDocument, 'id' | 'title'>[]);
  const documentIds = [...new Set(search.data.steps.flatMap((step) => step.docIds))].slice(0, options.k);
  const titles = documentIds.map((id) => titleOf.get(id) ?? id);
  return recallOfTitles(titles, supportingTitles, documentIds.length);
}

/**
 * Recall@k of supporting titles over a ranked list of retrieved titles (the first `k` only).
 *
 * @example
 * recallAtK(['A', 'X', 'B'], ['A', 'B'], 2); // 0.5
 */
export function recallAtK(retrievedTitles: readonly string[], supportingTitles: readonly string[], k: number): number {
  return recallOfTitles(retrievedTitles.slice(0, k), supportingTitles, Math.min(k, retrievedTitles.length)).recall;
}

/** Maps each document id to its title. */
export function corpusTitles(documents: readonly Pick<CorpusDocument, 'id' | 'title'>[]): Map<string, string> {
  return new Map(documents.map((document) => [document.id, document.title]));
}

function recallOfTitles(retrievedTitles: readonly string[], supportingTitles: readonly string[], documentsConsidered: number): SupportRecall {
  const retrieved = new Set(retrievedTitles.map(titleKey));
  const supporting = [...new Set(supportingTitles)];
  const found = supporting.filter((title) => retrieved.has(titleKey(title)));
  const missing = supporting.filter((title) => !retrieved.has(titleKey(title)));
  const recall = supporting.length === 0 ? 0 : found.length / supporting.length;
  return { recall, complete: missing.length === 0, supportingTitles: supporting, found, missing, documentsConsidered };
}

/** Titles compare after Unicode and whitespace normalisation: exports differ in both. */
function titleKey(title: string): string {
  return title.normalize('NFC').trim().replace(/\s+/g, ' ');
}
