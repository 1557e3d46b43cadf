import type { Grade } from './episode.js';
import type { Task } from './task.js';

/**
 * Decides whether an answer to a task is correct. Returns undefined when the task has no gold
 * answer (label-free tasks). Graders that call a model report those tokens as verification.
 */
export type Grader = (task: Task, answer: string) => Grade | undefined | Promise<Grade | undefined>;
