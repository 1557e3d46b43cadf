import type { ExplanationComparison, ScoreExplanation } from './explain-score.js';

/** How a head's explanation is read, in one sentence. */
export function explanationMethodNote(explanation: Pick<ScoreExplanation, 'method'>): string {
  return explanation.method === 'exact'
    ? 'linear head: exact, each contribution is weight x value and they sum with the bias to the score'
    : 'MLP head: integrated gradients from the empty input (an approximation of each feature\'s role: interactions are shared out), contributions sum with the empty input\'s score to the score';
}

const signed = (value: number, digits = 4) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

/**
 * A score explanation as text: the score and its baseline, the sum per encoder, then the `top`
 * largest contributions and what the rest add up to.
 *
 * @example
 * stdout.write(formatScoreExplanation(await explainScore(model, task, plan), 12));
 */
export function formatScoreExplanation(explanation: ScoreExplanation, top: number): string {
  const { contributions } = explanation;
  const shown = contributions.slice(0, top);
  const rest = contributions.slice(top);
  const baselineLabel = explanation.method === 'exact' ? 'bias' : 'empty input';
  const featureTotal = contributions.reduce((sum, entry) => sum + entry.contribution, 0);
  const lines = [
    `model ${explanation.model} (${explanationMethodNote(explanation)})`,
    `score ${explanation.score.toFixed(6)} = ${baselineLabel} ${explanation.baseline.toFixed(6)} ${signed(featureTotal, 6)} from ${contributions.length} features`,
    `by encoder: ${explanation.byEncoder.map((entry) => `${entry.encoder} ${signed(entry.contribution)} (${entry.features} features)`).join(', ')}`,
    `largest contributions:`,
    ...shown.map((entry) => `  ${signed(entry.contribution).padStart(9)}  ${entry.encoder}  ${entry.feature}`),
  ];
  if (rest.length > 0) lines.push(`  ${signed(rest.reduce((sum, entry) => sum + entry.contribution, 0)).padStart(9)}  (${rest.length} other features)`);
  return `${lines.join('\n')}\n`;
}

/**
 * What separates plan a from plan b as text: both scores, their difference, and the `top`
 * features whose contributions differ most.
 */
export function formatExplanationComparison(a: ScoreExplanation, b: ScoreExplanation, comparison: ExplanationComparison, top: number): string {
  const shown = comparison.differences.slice(0, top);
  const rest = comparison.differences.slice(top);
  const lines = [
    `model ${a.model} (${explanationMethodNote(a)})`,
    `plan score ${a.score.toFixed(6)}, against ${b.score.toFixed(6)}: difference ${signed(comparison.scoreDifference, 6)}`,
    `what separates them (plan minus against), largest first:`,
    ...shown.map((entry) => `  ${signed(entry.difference).padStart(9)}  ${entry.encoder}  ${entry.feature}  (plan ${signed(entry.a)}, against ${signed(entry.b)})`),
  ];
  if (rest.length > 0) lines.push(`  ${signed(rest.reduce((sum, entry) => sum + entry.difference, 0)).padStart(9)}  (${rest.length} other features)`);
  return `${lines.join('\n')}\n`;
}
