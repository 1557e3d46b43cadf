import { z } from 'zod';

/** An inclusive integer range `[min, max]` from which a generator draws uniformly. */
const IntRange = (min: number, max: number) =>
  z
    .tuple([z.number().int().min(min).max(max), z.number().int().min(min).max(max)])
    .refine(([low, high]) => low <= high, 'range must be [min, max] with min <= max');

/** `arith`: iGSM-like problems over a random dependency graph of quantities (docs/sim.md). */
export const ArithFamilySchema = z.strictObject({
  /** Share of generated tasks. @default 1 */
  weight: z.number().min(0).default(1),
  /** Longest chain of relations from a given value to the asked quantity. */
  depth: IntRange(1, 12).default([2, 6]),
  /** Fan-in: quantities combined by one relation. */
  breadth: IntRange(1, 4).default([1, 3]),
  /** Independent sub-problems combined at the end. */
  parallel: IntRange(1, 4).default([1, 2]),
  /** Quantities asked for, answered in order as a comma-separated list. */
  horizon: IntRange(1, 4).default([1, 1]),
  /** Relations that play no part in the answer. */
  distractors: IntRange(0, 20).default([1, 4]),
  /** Planted misleading statements about quantities on the answer's path. */
  misleading: IntRange(0, 4).default([0, 1]),
});

/** `multihop`: questions chaining facts over a generated knowledge base, answered from its corpus. */
export const MultihopFamilySchema = z.strictObject({
  weight: z.number().min(0).default(1),
  /** Facts chained by one question. */
  hops: IntRange(1, 4).default([2, 4]),
  /** People in the knowledge base (companies and cities scale with it). */
  entities: z.number().int().min(20).max(100_000).default(300),
  /**
   * Share of questions about famous entities: every hop's subject is among the most talked-about
   * `famousTop` of its type, so models recall the facts without search (worker.famousRecallPenalty).
   */
  famousShare: z.number().min(0).max(1).default(0.4),
  /** Share of each entity type, from the most popular down, that counts as famous. */
  famousTop: z.number().gt(0).max(1).default(0.1),
  /**
   * Probability that a famous entity's fact also has a rumour in the corpus: a gossip note stating
   * a wrong value with the relation's words, which search retrieves and which misleads the step
   * that reads it (knowledge conflicts, arXiv 2305.13300). 0: no rumours.
   */
  rumours: z.number().min(0).max(1).default(0.3),
  /**
   * A failed hop never lands on the question's right answer by chance: not on a value of a document
   * it read (search retrieves the true chain's documents, which name the answer), nor in a small
   * answer space (8 countries, a year within 15 of the truth). Off by default, as real models do get
   * lucky; `control` turns it on, so that a task is solved by every plan or by none there.
   */
  failuresAvoidAnswer: z.boolean().default(false),
});

/** `hotpot`: real HotpotQA questions with BM25 over their real paragraphs (only when the file exists). */
export const HotpotFamilySchema = z.strictObject({
  weight: z.number().min(0).default(0),
  /** HotpotQA distractor-format JSONL. @default ../shared/data/hotpotqa-dev-distractor-200.jsonl */
  path: z.string().optional(),
  /** Its corpus JSONL (`id`, `title`, `text`). @default the path with `-corpus` before `.jsonl` */
  corpusPath: z.string().optional(),
});

/** The simulated worker's competence model. Logits add up; see docs/sim.md for the formula. */
export const WorkerSchema = z.strictObject({
  /** Model tiers: a model name maps to a skill logit. */
  tiers: z
    .record(z.string(), z.strictObject({ skill: z.number() }))
    .default({ 'sim-worker-small': { skill: 2.0 }, 'sim-worker': { skill: 3.6 }, 'sim-worker-large': { skill: 4.2 } }),
  /** Model used when a call names none. */
  defaultModel: z.string().default('sim-worker'),
  /** Logit cost per unit of step difficulty. */
  stepDifficulty: z.number().min(0).default(0.5),
  /** Logit cost per step already taken in the same call: long chains in one call fail more. */
  chainFatigue: z.number().min(0).default(0.3),
  /**
   * Difficulty of the hand-off step a call pays when it works a sub-task the orchestrator wrote
   * (not the original question): interpreting the sub-task and the values handed to it. When it
   * fails, the call's first step goes wrong. 0 makes decomposition free.
   */
  handoffDifficulty: z.number().min(0).default(0.5),
  /** Logit cost per ln(1 + distracting statements in context). */
  distractorPenalty: z.number().min(0).default(0.25),
  /** Logit cost on a step a misleading statement is about; its failure then gives the planted value. */
  misleadPenalty: z.number().min(0).default(2.5),
  /** Logit cost per unit of sampling temperature above `referenceTemperature`. */
  temperatureSlope: z.number().min(0).default(0.4),
  referenceTemperature: z.number().min(0).default(0.3),
  /** Logit cost of a lookup/read step whose fact is not in the context (the model must recall it). */
  noEvidencePenalty: z.number().min(0).default(4.5),
  /**
   * Logit cost of recalling, without evidence, a fact about a famous entity (multihop
   * `famousShare`): models recall popular entities' facts well (PopQA, arXiv 2212.10511).
   */
  famousRecallPenalty: z.number().min(0).default(0.5),
  /**
   * Logit cost on every step of a call per independent sub-computation beyond the first that the
   * call must work out itself (arith tasks with parallel parts): interleaving unrelated work in
   * one chain. 0: no cost, so splitting independent parts gains nothing.
   */
  interleavePenalty: z.number().min(0).default(0.8),
  /** Share (rho) of a step's success latent common to every call on the same task step. */
  correlation: z.number().min(0).max(1).default(0.5),
  /** `step`: one shared latent per task step; `task`: one per task (every step fails together). */
  correlationScope: z.enum(['step', 'task']).default('step'),
  /** Probability that a failing call gives the step's shared wrong value rather than its own. */
  sharedWrongAnswer: z.number().min(0).max(1).default(0.3),
  /**
   * Critic: P(says incorrect | answer wrong), P(says incorrect | answer right), and
   * P(says incorrect, naming the statement | the answer is the one a misleading statement gives):
   * an error that contradicts the text is found far more often than a slip in the reasoning
   * (arXiv 2311.08516, 2310.01798). A refine told so discounts the statement.
   */
  critic: z
    .strictObject({ detect: z.number().min(0).max(1), falseAlarm: z.number().min(0).max(1), noteDetect: z.number().min(0).max(1).default(0.9) })
    .default({ detect: 0.25, falseAlarm: 0.1, noteDetect: 0.9 }),
  /** Logit bonus of a refine call (it sees the critique). */
  refineBonus: z.number().min(0).default(0.5),
  /** Debate: P(adopting the other agents' plurality answer when it differs from one's own). */
  persuasion: z.number().min(0).max(1).default(0.5),
});

/** Token costs that the texts alone do not show. */
export const TokensSchema = z.strictObject({
  /**
   * Hidden reasoning tokens billed per reasoning step, as reasoning models bill tokens they do
   * not return. Keeps stored responses short while execution costs stay realistic.
   */
  reasoningTokensPerStep: z.number().int().min(0).default(1000),
  /** Hidden reasoning tokens billed per plan the orchestrator writes. */
  orchestratorReasoningTokens: z.number().int().min(0).default(0),
});

/**
 * The simulated judge models (Best-of-N baselines, issue 6; src/sim/judge/, docs/select.md).
 * Trajectory judge: when some candidate is correct it picks one with probability
 * sigmoid(trajectorySkill - lengthPenalty * ln N), else the most popular wrong answer. Plan
 * judge: imagines `imaginedRuns` executions of each plan in a world with its own latent draws
 * (never the real ones), scores each plan logit((k + 0.5) / (runs + 1)) + planNoise * N(0, 1)
 * and picks the best.
 */
export const JudgeSchema = z.strictObject({
  /** Trajectory judge: skill logit at picking a correct trajectory when one exists. */
  trajectorySkill: z.number().default(2.0),
  /** Trajectory judge: logit cost per ln(number of trajectories read); long contexts are harder. */
  lengthPenalty: z.number().min(0).default(0.5),
  /** Plan judge (reads plans only): noise (logit sd) on its estimate of each plan's chance of success. */
  planNoise: z.number().min(0).default(1.0),
  /** Plan judge: imagined executions per plan behind its estimate (more = a sharper judge). */
  imaginedRuns: z.number().int().min(1).max(64).default(8),
  /** Hidden reasoning tokens billed per candidate read, by either judge (as reasoning models bill them). */
  reasoningTokensPerCandidate: z.number().int().min(0).default(1000),
});

export const OrchestratorSchema = z.strictObject({
  /** Share of plans written in the MAS-Orchestra XML format rather than JSON. */
  xmlShare: z.number().min(0).max(1).default(0.25),
  /** Malformed-output rate per checkpoint name; checkpoints not listed use `defaultMalformedRate`. */
  malformedRate: z.record(z.string(), z.number().min(0).max(1)).default({ base: 0.1 }),
  defaultMalformedRate: z.number().min(0).max(1).default(0.03),
  /** Skill logit of the orchestrator when it answers directly (DoM low, no agent). */
  directAnswerSkill: z.number().default(2.4),
});

export const ScenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  /** Seed of everything the scenario generates (knowledge base, tasks, latent draws). */
  seed: z.number().int().default(1),
  /**
   * A scientific control: its knobs make plan choice unable to change accuracy (as `control`'s do).
   * It changes nothing in the world; `orchrm demo` judges such a run by the control targets (a
   * router saves nothing beyond fixed plans, stays within 2 points of them) instead of the others.
   */
  control: z.boolean().default(false),
  families: z.strictObject({
    arith: ArithFamilySchema.optional(),
    multihop: MultihopFamilySchema.optional(),
    hotpot: HotpotFamilySchema.optional(),
  }),
  worker: WorkerSchema.default(WorkerSchema.parse({})),
  tokens: TokensSchema.default(TokensSchema.parse({})),
  orchestrator: OrchestratorSchema.default(OrchestratorSchema.parse({})),
  judge: JudgeSchema.default(JudgeSchema.parse({})),
});

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type ArithFamilyConfig = z.infer<typeof ArithFamilySchema>;
export type MultihopFamilyConfig = z.infer<typeof MultihopFamilySchema>;
export type HotpotFamilyConfig = z.infer<typeof HotpotFamilySchema>;
export type WorkerConfig = z.infer<typeof WorkerSchema>;
export type TokensConfig = z.infer<typeof TokensSchema>;
export type OrchestratorConfig = z.infer<typeof OrchestratorSchema>;
export type JudgeConfig = z.infer<typeof JudgeSchema>;
