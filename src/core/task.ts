import { z } from 'zod';

/** One question an orchestrator plans for. `answer` is the gold answer when a grader exists. */
export const TaskSchema = z.object({
  id: z.string().min(1, 'task id must be a non-empty string'),
  suite: z.string().min(1).default('custom'),
  question: z.string().min(1, 'task question must be a non-empty string'),
  answer: z.string().optional(),
  /** Aliases accepted as correct besides `answer` (multi-hop QA). */
  answerAliases: z.array(z.string()).optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type Task = z.infer<typeof TaskSchema>;
export type TaskInput = z.input<typeof TaskSchema>;

/** Which part of an environment's tasks: train tasks for collection and training, test tasks held out for evaluation. */
export type TaskSplit = 'train' | 'test';
