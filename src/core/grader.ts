import { GradeSchema, type Grade } from './episode.js';
import type { Task } from './task.js';
import { emptyUsage, type Usage } from './usage.js';

/** A grade plus the tokens a model-based grader (an LLM judge) spent reaching it. */
export type GradeWithUsage = Grade & { usage?: Usage };

/**
 * Decides whether an answer to a task is correct. Returns undefined when the task has no gold
 * answer (label-free tasks). Graders that call a model return those tokens in `usage`; the
 * executor counts them as verification.
 */
export type Grader = (task: Task, answer: string) => GradeWithUsage | undefined | Promise<GradeWithUsage | undefined>;

/**
 * Separates a grade from the verification tokens a model-based grader attached to it: the bare
 * Grade to store on the episode, and the usage to add to `episode.usage.verification` (zero for
 * rule-based graders).
 *
 * @example
 * const { grade, usage } = splitGradeUsage(await grader(task, answer));
 */
export function splitGradeUsage(grade: GradeWithUsage): { grade: Grade; usage: Usage } {
  return { grade: GradeSchema.parse(grade), usage: grade.usage ?? emptyUsage() };
}
