import type { Retriever, Task } from '../core/index.js';
import { recallAtK } from './support-recall.js';
import { supportingTitlesOf } from './supporting-titles.js';

/** Mean support recall of a retriever over tasks, at each cut-off. */
export interface SupportRecallReport {
  /** Tasks with supporting titles (the others are skipped). */
  tasks: number;
  /** Per k: mean recall@k and the share of tasks with every supporting title in the top k. */
  byK: { k: number; meanRecall: number; completeRate: number }[];
}

/**
 * Measures how well a retriever finds the gold supporting paragraphs when queried with each
 * task's question: recall@k of supporting titles, averaged over the tasks that have them.
 *
 * @example
 * const report = await evaluateSupportRecall(loadHotpotQa(path), createBm25Retriever(corpus), [5, 10]);
 */
export async function evaluateSupportRecall(tasks: readonly Task[], retriever: Retriever, ks: readonly number[]): Promise<SupportRecallReport> {
  const topK = Math.max(...ks);
  const sums = ks.map(() => ({ recall: 0, complete: 0 }));
  let counted = 0;
  for (const task of tasks) {
    const supporting = supportingTitlesOf(task);
    if (supporting === undefined) continue;
    counted++;
    const titles = (await retriever.search(task.question, { topK })).map((document) => document.title);
    ks.forEach((k, index) => {
      const recall = recallAtK(titles, supporting, k);
      sums[index]!.recall += recall;
      if (recall === 1) sums[index]!.complete++;
    });
  }
  return {
    tasks: counted,
    byK: ks.map((k, index) => ({ k, meanRecall: counted === 0 ? 0 : sums[index]!.recall / counted, completeRate: counted === 0 ? 0 : sums[index]!.complete / counted })),
  };
}
