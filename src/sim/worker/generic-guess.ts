import { Rng } from '../../core/index.js';
import type { SimulatedAnswer } from './simulate-answer.js';

const NUMBER = /-?\d+(?:\.\d+)?/g;
const NAME = /\b[A-Z][a-z]+(?: [A-Z][a-z]+)*/g;
const QUESTION_WORDS = new Set(['What', 'Which', 'Who', 'Whom', 'Whose', 'Where', 'When', 'How', 'Why', 'Is', 'Are', 'Does', 'Do', 'The', 'Step']);
/** Matches are collected only from this many characters: a guess needs no more, and it bounds the work. */
const MAX_SCANNED_CHARS = 4_000;

/**
 * What the simulated worker answers when no family recognises the prompt (a question outside
 * every family): a plausible guess from the question's own surface, as a model answering
 * blind would: one of its numbers (sometimes off by a little) when it has numbers, else one
 * of its capitalised names, else `unknown`; with reasoning that says it is a guess. Seeded by
 * the call seed only, so it is deterministic but carries no competence.
 */
export function genericGuess(question: string, seed: number): SimulatedAnswer {
  const rng = new Rng(seed);
  const text = question.slice(0, MAX_SCANNED_CHARS);
  const numbers = text.match(NUMBER) ?? [];
  if (numbers.length > 0) {
    const base = Number(rng.pick(numbers));
    const answer = String(rng.chance(0.5) ? base : base + rng.int(-3, 3));
    return {
      answer,
      reasoning: ['I cannot tell exactly which quantities this asks to combine.', `A rough estimate from the numbers given is ${answer}.`],
      stepsWorked: 1,
    };
  }
  const names = (text.match(NAME) ?? []).filter((name) => !QUESTION_WORDS.has(name));
  const answer = names.length > 0 ? rng.pick(names) : 'unknown';
  return {
    answer,
    reasoning: ['I do not recognise the facts this needs and cannot check them.', `My best guess is ${answer}.`],
    stepsWorked: 1,
  };
}
