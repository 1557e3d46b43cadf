import { z } from 'zod';
import type { Task } from '../core/index.js';

/** The `Task.metadata` key where the HotpotQA and MuSiQue loaders store gold supporting titles. */
export const SUPPORTING_TITLES_KEY = 'supportingTitles';

const TitlesSchema = z.array(z.string());

/**
 * The distinct titles of the paragraphs that support a task's answer, in first-seen order, or
 * undefined when the task carries none (or carries something that is not a list of strings).
 *
 * @example
 * supportingTitlesOf(hotpotTask); // ['VIVA Media', 'Gesellschaft mit beschränkter Haftung']
 */
export function supportingTitlesOf(task: Pick<Task, 'metadata'>): string[] | undefined {
  const parsed = TitlesSchema.safeParse(task.metadata[SUPPORTING_TITLES_KEY]);
  return parsed.success && parsed.data.length > 0 ? parsed.data : undefined;
}

/** Distinct values in first-seen order. */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
