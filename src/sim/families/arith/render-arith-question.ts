import type { Rng } from '../../../core/index.js';
import type { ArithGraph } from './arith-graph.js';
import { renderDefinition, renderNote, renderQuestionSentence } from './render-sentences.js';

/** The task text: every definition and note in shuffled order, then the question. */
export function renderArithQuestion(rng: Rng, graph: ArithGraph): string {
  const sentences: string[] = [];
  for (const [id, definition] of graph.definitions) sentences.push(renderDefinition(rng, id, definition));
  for (const [id, value] of graph.notes) sentences.push(renderNote(rng, id, value));
  return [...rng.shuffle(sentences), renderQuestionSentence(graph.targets)].join(' ');
}
