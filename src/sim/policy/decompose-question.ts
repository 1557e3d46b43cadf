import type { Granularity, SimFamily, TextDecomposition } from '../families/family.js';

/**
 * Asks each family in turn to decompose the question; the first that answers wins. When none
 * recognises the text (a question from outside the scenario), the whole question is one
 * sub-question, as an orchestrator that sees no structure would treat it.
 */
export function decomposeQuestion(families: readonly SimFamily[], question: string, granularity: Granularity): TextDecomposition {
  for (const family of families) {
    const decomposition = family.decompose(question, granularity);
    if (decomposition && decomposition.subQuestions.length > 0) return decomposition;
  }
  return { subQuestions: [{ id: 'whole', dependsOn: [], render: () => question.trim() }], finalId: 'whole' };
}
