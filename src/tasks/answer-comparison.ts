/** The outcome of comparing one predicted answer with a gold answer, as `orchrm grade` prints it. */
export interface AnswerComparison {
  correct: boolean;
  /** The gold answer (or the alias that matched best) in the form it was compared in. */
  normalizedGold: string;
  normalizedPred: string;
  /** How the decision was made, e.g. `math_numeric`, `aime_integer`, `qa_exact_match`. */
  method: string;
  /** Graded score in [0, 1] when the metric has one (token F1 for QA). */
  score?: number;
}
