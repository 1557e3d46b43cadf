import { fnv1a32 } from '../../../core/hash.js';
import type { Task } from '../../../core/task.js';
import type { PromptView, SimFamily, SimProblem, SimStep, StepOutcome } from '../../families/family.js';

/*
 * A tiny family for the worker's tests, implementing the SimFamily contract with two task
 * shapes whose statistics are easy to reason about:
 * - chains: `Chain <id>: start at 5; add 3; add 4. Note: ... What is the total?` One compute
 *   step per `add`; a failed step adds a wrong amount (1-4 more, from its wrongSeed), which
 *   propagates to the total. `Note:` sentences are distractors; `Rumour:` makes the last step misled.
 * - lookups: `Lookup <id>: what is the code of <Name>?` One lookup step whose evidence is
 *   in context when a shown document is titled <Name>; nextQuery asks for it otherwise.
 */
const CHAIN = /^Chain (\w+): start at (-?\d+)((?:; add \d+)+)\.(.*)What is the total\?$/s;
const LOOKUP = /^Lookup (\w+): what is the code of ([A-Z][a-z]+)\?$/;

export function chainQuestion(options: { id: string; start: number; adds: readonly number[]; notes?: number; rumour?: boolean }): string {
  const notes = Array.from({ length: options.notes ?? 0 }, (_, index) => ` Note: crate ${index} holds ${index + 7} apples.`).join('');
  const rumour = options.rumour ? ' Rumour: someone said the total is 3.' : '';
  return `Chain ${options.id}: start at ${options.start}${options.adds.map((add) => `; add ${add}`).join('')}.${notes}${rumour} What is the total?`;
}

export function lookupQuestion(id: string, name: string): string {
  return `Lookup ${id}: what is the code of ${name}?`;
}

/** The code of a name, as the fake corpus states it. */
export function codeOf(name: string): number {
  return 100 + (fnv1a32(name) % 900);
}

function chainProblem(text: string, recognised: boolean): SimProblem | undefined {
  const match = CHAIN.exec(text.trim());
  if (match === null) return undefined;
  const start = Number(match[2]);
  const adds = (match[3] ?? '').split('; add ').slice(1).map(Number);
  const tail = match[4] ?? '';
  const distractorCount = tail.split('Note:').length - 1;
  const misledLast = tail.includes('Rumour:');
  const steps: SimStep[] = adds.map((_, index) => ({
    key: `add${index}`,
    kind: 'compute',
    difficulty: 1,
    evidence: 'not_needed',
    misled: misledLast && index === adds.length - 1,
  }));
  const correct = adds.reduce((sum, add) => sum + add, start);
  return {
    family: 'arith',
    taskKey: `chain:${match[1]}`,
    recognised,
    steps,
    distractorCount,
    correctAnswer: String(correct),
    solve(outcome: (step: SimStep, index: number) => StepOutcome) {
      let value = start;
      const reasoning: string[] = [];
      steps.forEach((step, index) => {
        const result = outcome(step, index);
        const add = adds[index] ?? 0;
        value += result.ok ? add : add + 1 + (result.wrongSeed % 4);
        reasoning.push(`Adding ${add} gives ${value}.`);
      });
      return { answer: String(value), reasoning };
    },
    nextQuery: () => undefined,
  };
}

function lookupProblem(view: PromptView, text: string, recognised: boolean): SimProblem | undefined {
  const match = LOOKUP.exec(text.trim());
  if (match === null) return undefined;
  const name = match[2] ?? '';
  const found = view.documents.some((document) => document.title === name);
  const step: SimStep = { key: `code:${name}`, kind: 'lookup', difficulty: 1, evidence: found ? 'in_context' : 'absent', misled: false };
  const correct = codeOf(name);
  return {
    family: 'arith',
    taskKey: `lookup:${match[1]}`,
    recognised,
    steps: [step],
    distractorCount: Math.max(0, view.documents.length - (found ? 1 : 0)),
    correctAnswer: String(correct),
    solve(outcome) {
      const result = outcome(step, 0);
      const value = result.ok ? correct : correct + 1 + (result.wrongSeed % 50);
      return { answer: String(value), reasoning: [`The code of ${name} is ${value}.`] };
    },
    nextQuery: () => (found ? undefined : `code of ${name}`),
  };
}

/** The fake family: reads the sub-task, else the original question as the whole task (recognised false). */
export const fakeFamily: SimFamily = {
  name: 'arith',
  generate(options) {
    return Array.from({ length: options.count }, (_, index): Task => {
      const adds = Array.from({ length: options.rng.int(1, 5) }, () => options.rng.int(1, 9));
      const question = chainQuestion({ id: `${options.idPrefix}${index}`, start: options.rng.int(1, 20), adds });
      const problem = chainProblem(question, true);
      return { id: `${options.idPrefix}-${index}`, suite: 'arith', question, answer: problem?.correctAnswer, metadata: {} };
    });
  },
  read(view) {
    return (
      chainProblem(view.subTask, true) ??
      lookupProblem(view, view.subTask, true) ??
      chainProblem(view.originalQuestion, false) ??
      lookupProblem(view, view.originalQuestion, false)
    );
  },
  decompose: () => undefined,
  corpus: () => ['Ada', 'Bea', 'Cid'].map((name) => ({ id: `doc-${name}`, title: name, text: `The code of ${name} is ${codeOf(name)}.` })),
};
