import { majorityVote, normalizeAnswer } from '../../agents/index.js';
import { sigmoid, type Rng } from '../../core/index.js';
import type { JudgeConfig } from '../scenario/scenario-schema.js';

/** Probability that the trajectory judge picks a correct candidate when one exists among `count`. */
export function trajectoryPickRate(judge: JudgeConfig, count: number): number {
  return sigmoid(judge.trajectorySkill - judge.lengthPenalty * Math.log(Math.max(1, count)));
}

/**
 * The simulated trajectory judge's pick among final answers. It knows the correct answer of a
 * task it recognises (a strong model checking a worked solution) but misjudges: when some
 * candidate is correct it picks one (uniformly among them) with probability
 * {@link trajectoryPickRate}; otherwise, or when none is correct, it picks a plausible wrong
 * candidate: one holding the most common wrong answer (consensus persuades). Candidates with no
 * answer are never picked over one with an answer; when no candidate has a wrong answer, every
 * pick lands on a correct one. On a task it does not recognise
 * (`correctAnswer` undefined) it goes with the majority answer.
 */
export function pickTrajectory(answers: readonly string[], correctAnswer: string | undefined, judge: JudgeConfig, rng: Rng): number {
  if (answers.length <= 1) return 0;
  if (correctAnswer === undefined) return Math.max(0, majorityVote(answers).winnerIndex);
  const target = normalizeAnswer(correctAnswer);
  const keys = answers.map(normalizeAnswer);
  const correct = keys.flatMap((key, index) => (key !== '' && key === target ? [index] : []));
  if (correct.length === answers.length) return rng.pick(correct);
  if (correct.length > 0 && rng.chance(trajectoryPickRate(judge, answers.length))) return rng.pick(correct);
  const wrong = keys.flatMap((key, index) => (key !== '' && key !== target ? [index] : []));
  // A trajectory without an answer is never preferred to one with an answer: with no wrong
  // answer to be misled by, the judge's error has nowhere plausible to go.
  if (wrong.length === 0) return correct.length > 0 ? rng.pick(correct) : rng.pick(keys.map((_, index) => index));
  const counts = new Map<string, number>();
  for (const index of wrong) counts.set(keys[index] as string, (counts.get(keys[index] as string) ?? 0) + 1);
  const most = Math.max(...counts.values());
  return rng.pick(wrong.filter((index) => counts.get(keys[index] as string) === most));
}
