import type { Granularity, SubQuestion, TextDecomposition } from '../family.js';
import { parseQuestion, renderQuestion } from './question-grammar.js';

/**
 * Proposes sub-questions for a multihop question, reading only its text.
 * - `whole`: the question itself.
 * - `steps`: one single-hop question per hop, each asking about the previous one's answer
 *   (`Who is the mentor of ${A}?`), the first about the anchor.
 * - `components`: a chain has no independent parts, so this is the same as `whole`.
 * Undefined when the text is not a multihop question.
 */
export function decomposeMultihop(question: string, granularity: Granularity): TextDecomposition | undefined {
  const parsed = parseQuestion(question);
  if (parsed === undefined) return undefined;
  if (granularity !== 'steps' || parsed.chain.length === 1) {
    return { subQuestions: [{ id: 'A', dependsOn: [], render: () => question }], finalId: 'A' };
  }
  const subQuestions: SubQuestion[] = parsed.chain.map((relation, hop) => {
    const id = subQuestionId(hop);
    if (hop === 0) return { id, dependsOn: [], render: () => renderQuestion(parsed.anchorText, [relation]) };
    const previous = subQuestionId(hop - 1);
    return { id, dependsOn: [previous], render: (refs) => renderQuestion(refs[previous] ?? `\${${previous}}`, [relation]) };
  });
  return { subQuestions, finalId: subQuestionId(parsed.chain.length - 1) };
}

/** `A`, `B`, ... (the grammar allows long chains; past `Z` ids become `Q27`, `Q28`, ...). */
function subQuestionId(hop: number): string {
  return hop < 26 ? String.fromCharCode(65 + hop) : `Q${hop + 1}`;
}
