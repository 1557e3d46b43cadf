import { type RetrievedDocument, type SearchArtifacts, UserError } from '../core/index.js';
import type { SearchParams } from '../plan/index.js';
import type { BlockDefinition } from './block.js';
import { builtinSpec } from './builtin-spec.js';
import { extractAnswer, readSearchAction, searchFeedbackMessage, searchStartPrompt } from '../prompts/index.js';
import { normalizeAnswer } from './normalize-answer.js';

/**
 * Search: a tool loop over `context.retriever`. Each iteration the model writes either
 * `<search>query</search>` (the block runs `retriever.search(query, {topK})` and feeds back the
 * numbered results) or `<answer>...</answer>` (the loop ends). After `params.maxIterations`
 * iterations without an answer, one more call is told to answer. Every query is recorded with
 * the ids it retrieved, or the error it met: a failing retriever is reported to the model and
 * recorded, not thrown, so one bad query does not sink the node.
 */
export const searchBlock: BlockDefinition<SearchParams> = {
  ...builtinSpec('search'),
  async run(context) {
    const { retriever } = context;
    if (retriever === undefined) {
      throw new UserError(
        `node "${context.nodeId}" uses the search block but the run has no retriever; configure one (e.g. a BM25 corpus via createBm25Retriever) or plan without search`,
      );
    }
    const { maxIterations, topK, temperature, maxTokens } = context.params;
    const messages = searchStartPrompt(context, maxIterations);
    const steps: SearchArtifacts['steps'] = [];
    const foundTexts = new Map<string, string>();
    const finish = (output: string): { output: string; answer: string; artifacts: SearchArtifacts } => {
      const answer = extractAnswer(output).answer;
      const grounded = answerInDocuments(answer, foundTexts.values());
      return { output, answer, artifacts: { kind: 'search', steps, documentsFound: foundTexts.size, ...(grounded !== undefined && { answerInDocuments: grounded }) } };
    };

    for (let iteration = 0; iteration < maxIterations; iteration++) {
      const response = await context.chat({ messages: [...messages], temperature, maxTokens });
      messages.push({ role: 'assistant', content: response.text });
      const action = readSearchAction(response.text);
      if (action.kind === 'answer') return finish(response.text);
      const iterationsLeft = maxIterations - iteration - 1;
      if (action.kind === 'none') {
        messages.push(searchFeedbackMessage({ iterationsLeft }));
        continue;
      }
      const { query } = action;
      let documents: RetrievedDocument[] = [];
      let error: string | undefined;
      if (query === '') {
        error = 'empty query';
      } else {
        try {
          documents = await retriever.search(query, { topK, signal: context.signal });
          documents = documents.slice(0, topK);
        } catch (cause) {
          if (context.signal.aborted) throw cause;
          error = cause instanceof Error ? cause.message : String(cause);
        }
      }
      for (const document of documents) foundTexts.set(document.id, `${document.title}\n${document.text}`);
      steps.push({ query, docIds: documents.map((document) => document.id), ...(error === undefined ? {} : { error }) });
      messages.push(searchFeedbackMessage({ query, documents, error, iterationsLeft }));
    }
    // The last feedback message already says no searches are left and asks for the answer.
    const final = await context.chat({ messages: [...messages], temperature, maxTokens });
    return finish(final.text);
  },
};

/** Answers too common to mean anything when a document contains them. */
const UNINFORMATIVE_ANSWERS: ReadonlySet<string> = new Set(['', 'yes', 'no', 'true', 'false', 'unknown', 'none', 'n/a']);

/**
 * Whether the answer occurs, as whole words, in one of the documents the loop retrieved (case
 * and spacing ignored): a label-free sign that the answer is grounded in what was found. It is
 * undefined when nothing was retrieved or the answer is too short or too common to tell (a
 * single character, yes/no, unknown).
 */
export function answerInDocuments(answer: string, documentTexts: Iterable<string>): boolean | undefined {
  const wanted = normalizeAnswer(answer);
  if (wanted.length < 2 || UNINFORMATIVE_ANSWERS.has(wanted)) return undefined;
  const escaped = wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
  let any = false;
  for (const text of documentTexts) {
    any = true;
    if (pattern.test(text)) return true;
  }
  return any ? false : undefined;
}
