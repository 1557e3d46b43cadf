// Python 3's `\b` is Unicode-aware, so the boundary is any letter, digit or underscore.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
/** ASCII punctuation, as Python's `string.punctuation` that the SQuAD script strips. */
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const SPECIAL_ANSWERS = new Set(['yes', 'no', 'noanswer']);

/**
 * SQuAD answer normalisation (the official v1.1 evaluation script, also used by HotpotQA and
 * MuSiQue): lower case, punctuation removed, the articles a/an/the removed, whitespace collapsed.
 *
 * @example
 * normalizeQaAnswer('The  Eiffel Tower!'); // 'eiffel tower'
 */
export function normalizeQaAnswer(answer: string): string {
  return answer.toLowerCase().replace(PUNCTUATION, '').replace(ARTICLES, ' ').split(/\s+/).filter(Boolean).join(' ');
}

/** 1 when the normalised answers are equal, else 0. */
export function qaExactMatch(gold: string, predicted: string): number {
  return normalizeQaAnswer(gold) === normalizeQaAnswer(predicted) ? 1 : 0;
}

/**
 * Token-level F1 of the normalised answers (bag of tokens, as the SQuAD script). As in the
 * HotpotQA script, a yes/no/noanswer answer scores 0 against anything different.
 *
 * @example
 * qaTokenF1('Barack Obama', 'Obama'); // 0.6666666666666666
 */
export function qaTokenF1(gold: string, predicted: string): number {
  const goldNormalized = normalizeQaAnswer(gold);
  const predictedNormalized = normalizeQaAnswer(predicted);
  if ((SPECIAL_ANSWERS.has(goldNormalized) || SPECIAL_ANSWERS.has(predictedNormalized)) && goldNormalized !== predictedNormalized) return 0;
  const goldTokens = goldNormalized.split(' ').filter(Boolean);
  const predictedTokens = predictedNormalized.split(' ').filter(Boolean);
  const counts = new Map<string, number>();
  for (const token of goldTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predictedTokens) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common++;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predictedTokens.length;
  const recall = common / goldTokens.length;
  return (2 * precision * recall) / (precision + recall);
}
