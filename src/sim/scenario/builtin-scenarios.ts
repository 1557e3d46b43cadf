import type { ScenarioInput } from './scenario-schema.js';

/**
 * The built-in scenarios. `default` mixes the generated families; one scenario per family
 * isolates it; `control` makes every block and decomposition equally competent, so plan
 * choice cannot change accuracy (a scientific control for later experiments).
 */
export const BUILTIN_SCENARIOS: Readonly<Record<string, ScenarioInput>> = {
  default: {
    name: 'default',
    description: 'Mixed families: iGSM-like arithmetic and multi-hop QA over a generated knowledge base.',
    families: { arith: { weight: 1 }, multihop: { weight: 1 } },
  },
  arith: {
    name: 'arith',
    description: 'Arithmetic only: dependency graphs of quantities with distractors and misleading statements.',
    families: { arith: { weight: 1 } },
  },
  multihop: {
    name: 'multihop',
    description: 'Multi-hop QA only, over a generated knowledge base with real BM25 retrieval.',
    families: { multihop: { weight: 1 } },
  },
  hotpot: {
    name: 'hotpot',
    description: 'Real HotpotQA questions and paragraphs (needs the data file); reading is simulated.',
    families: { hotpot: { weight: 1 } },
  },
  control: {
    name: 'control',
    control: true,
    description:
      'Control: one success latent per task shared by every call; no difficulty, fatigue, hand-off, distraction, temperature or evidence effects and equal tiers, so every plan is equally accurate.',
    // No famous questions and no rumours: the multihop questions and corpus are those of before issue 21.
    // A failed hop never lands on the answer by chance (search's leak, docs/sim.md §10, before the thirteenth round of issue 22).
    families: { arith: { weight: 1 }, multihop: { weight: 1, famousShare: 0, rumours: 0, failuresAvoidAnswer: true } },
    worker: {
      // Every tier equally able, so model choice cannot matter either; 0 puts accuracy near 50%.
      tiers: { 'sim-worker-small': { skill: 0 }, 'sim-worker': { skill: 0 }, 'sim-worker-large': { skill: 0 } },
      stepDifficulty: 0,
      chainFatigue: 0,
      handoffDifficulty: 0,
      distractorPenalty: 0,
      misleadPenalty: 0,
      temperatureSlope: 0,
      noEvidencePenalty: 0,
      famousRecallPenalty: 0,
      interleavePenalty: 0,
      correlation: 1,
      correlationScope: 'task',
      sharedWrongAnswer: 1,
      critic: { detect: 0, falseAlarm: 0, noteDetect: 0 },
      refineBonus: 0,
      persuasion: 0,
    },
    orchestrator: { directAnswerSkill: 0 },
  },
};
