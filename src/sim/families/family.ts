import type { Rng, Task } from '../../core/index.js';
import type { BlockPromptView } from '../../prompts/index.js';

/**
 * Contract between the task families, the simulated worker and the simulated orchestrator.
 *
 * A family generates tasks (public text + gold answer), and it *reads* text the way a model
 * would: the worker asks it to turn a prompt into a `SimProblem` (what must be worked out, in
 * which steps, with which evidence at hand), and the orchestrator asks it to decompose a
 * question into sub-questions. Both read only text; neither sees the generator's hidden state.
 * What is real stays real: arithmetic is computed, retrieval is BM25 over a real corpus; only
 * whether each step of a model call succeeds is drawn by the worker's competence model.
 */
export type FamilyName = 'arith' | 'multihop' | 'hotpot';

/** What the worker has read out of one prompt (the block prompt codec's `readBlockPrompt`, src/prompts/). */
export type PromptView = BlockPromptView;

/** One reasoning step a model must get right to answer. */
export interface SimStep {
  /** Stable across calls on the same task (e.g. the quantity or hop it computes). */
  key: string;
  /** `compute`: arithmetic from known values; `lookup`: a fact about an entity; `read`: a fact in a real paragraph. */
  kind: 'compute' | 'lookup' | 'read';
  /** 1 is an ordinary step; harder steps (products, wide fan-in) are larger. */
  difficulty: number;
  /** For lookup/read steps: whether the fact is in the prompt's context (a retrieved document). */
  evidence: 'in_context' | 'absent' | 'not_needed';
  /**
   * A misleading statement about this step is in the context: a planted note (arith) or a
   * retrieved rumour about a famous entity (multihop). Its failure gives the statement's value.
   */
  misled: boolean;
  /**
   * A fact about a famous entity, which models recall well without retrieval (popularity-
   * dependent recall, docs/sim.md §4.7): recalled at `worker.famousRecallPenalty` instead of
   * `noEvidencePenalty`. @default false
   */
  famous?: boolean;
}

/** How one step went, as drawn by the competence model. */
/**
 * How one step went. A failure takes the misleading statement's value when `planted` (the step
 * is misled and the call did not discount it), else a plausible wrong value from `wrongSeed`.
 */
export type StepOutcome = { ok: true } | { ok: false; wrongSeed: number; planted: boolean };

export interface SolveResult {
  /** The answer the simulated model gives (right or plausibly wrong). */
  answer: string;
  /** One human-readable line per step with the values actually used, for the response text. */
  reasoning: string[];
}

/** A problem read out of a prompt. */
export interface SimProblem {
  family: FamilyName;
  /** Identifies the underlying task across calls and nodes (e.g. hash of the statement). */
  taskKey: string;
  /** False when the sub-task text was not understood: the worker then solves the whole task. */
  recognised: boolean;
  steps: SimStep[];
  /** Statements in context that play no part in the answer. */
  distractorCount: number;
  /**
   * Independent sub-computations the call must keep apart (arith: the independent parts of what
   * it asks that it must work out itself). Each beyond the first costs every step
   * `worker.interleavePenalty` (docs/sim.md §4.7). @default 1
   */
  parts?: number;
  /** The correct answer to what was asked (used by the critic's competence model). */
  correctAnswer: string;
  /**
   * Works the problem with the given outcome per step: failed steps yield plausible wrong values
   * (seeded by `wrongSeed`, and a planted misleading value when `misled`) that propagate through
   * the real computation to the answer.
   */
  solve(outcome: (step: SimStep, index: number) => StepOutcome): SolveResult;
  /** Search query a model would write next, for the first step whose evidence is absent; undefined when none is missing. */
  nextQuery(): string | undefined;
}

/** A sub-question of a decomposition; `render` writes its text, referring to upstream answers. */
export interface SubQuestion {
  id: string;
  /** Ids of the sub-questions whose answers this one uses. */
  dependsOn: string[];
  /** Text of the sub-task; `refs` maps each dependency id to the text standing for its answer (e.g. `${B}`). */
  render(refs: Readonly<Record<string, string>>): string;
}

export type Granularity = 'whole' | 'components' | 'steps';

export interface TextDecomposition {
  subQuestions: SubQuestion[];
  /** Id of the sub-question whose answer is the task's answer. */
  finalId: string;
}

export interface GenerateOptions {
  count: number;
  rng: Rng;
  /** Prefix of task ids, e.g. `train` or `test`. */
  idPrefix: string;
}

export interface SimFamily {
  name: FamilyName;
  /** Generates tasks; `task.suite` is the family name and `task.metadata.axes` the drawn axes. */
  generate(options: GenerateOptions): Task[];
  /** Reads a worker prompt; undefined when the text is not a problem of this family. */
  read(view: PromptView): SimProblem | undefined;
  /** Reads a question and proposes sub-questions at a granularity; undefined when it cannot. */
  decompose(question: string, granularity: Granularity): TextDecomposition | undefined;
  /** Documents this family contributes to the scenario's search corpus. */
  corpus(): readonly { id: string; title: string; text: string }[];
}
