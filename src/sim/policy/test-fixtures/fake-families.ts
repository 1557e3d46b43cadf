import type { Granularity, SimFamily, SubQuestion, TextDecomposition } from '../../families/family.js';

/**
 * Small stand-ins for the task families, for the policy's tests: each reads only the question
 * text and decomposes it like the real families do (chains for steps, parallel parts joined
 * at the end for components, the question itself for whole). Generation and reading are not
 * needed by the policy and are left empty.
 */
function fakeFamily(name: SimFamily['name'], recognises: RegExp, decompose: (question: string, granularity: Granularity) => TextDecomposition): SimFamily {
  return {
    name,
    generate: () => [],
    read: () => undefined,
    decompose: (question, granularity) => (recognises.test(question) ? decompose(question, granularity) : undefined),
    corpus: () => [],
  };
}

const whole = (question: string): TextDecomposition => ({ subQuestions: [{ id: 'q', dependsOn: [], render: () => question }], finalId: 'q' });

/** iGSM-like: "the number of" quantities; steps chain three computations, components join two parts. */
export const fakeArithFamily = fakeFamily('arith', /the number of/i, (question, granularity) => {
  if (granularity === 'whole') return whole(question);
  if (granularity === 'steps') {
    const subQuestions: SubQuestion[] = [
      { id: 's1', dependsOn: [], render: () => 'What is the number of apples in each basket?' },
      { id: 's2', dependsOn: ['s1'], render: (refs) => `Each basket holds ${refs.s1} apples. What is the number of baskets?` },
      { id: 's3', dependsOn: ['s1', 's2'], render: (refs) => `With ${refs.s1} apples per basket and ${refs.s2} baskets, what is the total number of apples?` },
    ];
    return { subQuestions, finalId: 's3' };
  }
  const subQuestions: SubQuestion[] = [
    { id: 'left', dependsOn: [], render: () => 'What is the number of apples?' },
    { id: 'right', dependsOn: [], render: () => 'What is the number of pears?' },
    { id: 'join', dependsOn: ['left', 'right'], render: (refs) => `There are ${refs.left} apples and ${refs.right} pears. What is the number of fruits?` },
  ];
  return { subQuestions, finalId: 'join' };
});

/** Multi-hop: "Who is the X of the Y of Z?"; steps give one hop per node, components the whole. */
export const fakeMultihopFamily = fakeFamily('multihop', /^Who is the/i, (question, granularity) => {
  if (granularity !== 'steps') return whole(question);
  const subQuestions: SubQuestion[] = [
    { id: 'A', dependsOn: [], render: () => 'Who founded Zentrix Labs?' },
    { id: 'B', dependsOn: ['A'], render: (refs) => `Who is the mentor of ${refs.A}?` },
    { id: 'C', dependsOn: ['B'], render: (refs) => `In which city was ${refs.B} born?` },
  ];
  return { subQuestions, finalId: 'C' };
});

export const FAKE_FAMILIES: readonly SimFamily[] = [fakeArithFamily, fakeMultihopFamily];

/** Questions of both fakes, one no family recognises, and one whose text holds XML-like characters. */
export const SAMPLE_QUESTIONS = [
  'Each basket holds 4 apples. The number of baskets equals 3 times the number of crates, and there are 2 crates. What is the number of apples?',
  'The number of pears is 5 more than the number of apples. Note: a sign claims there are 9 apples, but there are 6. What is the number of pears?',
  'Who is the mentor of the founder of Zentrix Labs, and in which city was that mentor born?',
  'Who is the spouse of the director of the film Blue Harbor?',
  'Is 2 < 3 & 5 > 4? Answer yes or no.',
] as const;

/** A deterministic stand-in for the worker's direct solver. */
export const fakeAnswerDirectly = (question: string, seed: number) => String((question.length + seed) % 97);
