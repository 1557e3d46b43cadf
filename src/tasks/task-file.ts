import { InvalidInputError, InvalidUtf8Error, readTextFile, type Task, TaskSchema, UserError, zodIssues } from '../core/index.js';

/**
 * Reads a JSONL file of tasks (`{"id", "question", "answer"?, "suite"?, "metadata"?}` per line).
 * Every line is checked; all problems are reported together, naming the line and field.
 */
export function loadTaskFile(path: string): Task[] {
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    if (error instanceof InvalidUtf8Error) throw error;
    throw new UserError(`cannot read task file ${path}: ${(error as Error).message}`);
  }
  const tasks: Task[] = [];
  const issues: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      issues.push({ path: where, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    const parsed = TaskSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of zodIssues(parsed.error)) issues.push({ path: `${where}: ${issue.path}`, message: issue.message });
      return;
    }
    if (seen.has(parsed.data.id)) {
      issues.push({ path: `${where}: id`, message: `duplicate task id "${parsed.data.id}"` });
      return;
    }
    seen.add(parsed.data.id);
    tasks.push(parsed.data);
  });
  if (issues.length > 0) {
    throw new InvalidInputError(path, issues.slice(0, 20), 'Each line must be a JSON object with at least "id" and "question" strings.');
  }
  if (tasks.length === 0) throw new UserError(`task file ${path} holds no tasks; add one JSON object per line`);
  return tasks;
}
