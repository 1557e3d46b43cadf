import { GradeSchema, type Grade } from '../core/episode.js';
import { emptyUsage, type Usage } from '../core/usage.js';

/**
 * Separates a grade from the verification tokens a model-based grader attached to it
 * (`JudgeGrade.usage`): returns the bare Grade to store on the episode and the usage to add to
 * `episode.usage.verification` (zero for rule-based graders).
 *
 * @example
 * const { grade, usage } = splitGradeUsage(await grader(task, answer));
 * episode.grade = grade; episode.usage.verification = addUsage(episode.usage.verification, usage);
 */
export function splitGradeUsage(grade: Grade & { usage?: Usage }): { grade: Grade; usage: Usage } {
  return { grade: GradeSchema.parse(grade), usage: grade.usage ?? emptyUsage() };
}
