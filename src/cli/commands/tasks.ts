import type { Command } from 'commander';
import { z } from 'zod';
import type { Task } from '../../core/index.js';
import { SUITES, detectSuite, loadSuite, supportingTitlesOf, type Suite } from '../../tasks/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

const TasksCheckFlagsSchema = z.object({
  suite: z.enum([...SUITES, 'auto']).default('auto').meta({ placeholder: 'suite', description: 'file format; auto guesses it from the first record' }),
  questionField: z.string().optional().meta({ placeholder: 'field', description: 'with --suite jsonl: field holding the question (dots reach nested fields)' }),
  answerField: z.string().optional().meta({ placeholder: 'field', description: 'with --suite jsonl: field holding the gold answer' }),
  idField: z.string().optional().meta({ placeholder: 'field', description: 'with --suite jsonl: field holding the task id' }),
  json: z.boolean().default(false).meta({ description: 'print the report as JSON on stdout' }),
});
const tasksCheckFlags = optionsFromSchema(TasksCheckFlagsSchema);

/** Metadata fields whose values are counted in the report (level, subject, question type, hops). */
const BREAKDOWN_FIELDS = ['level', 'subject', 'type', 'hops', 'year'];

/** What `orchrm tasks check` reports about a valid file. */
export interface TaskFileReport {
  file: string;
  suite: Suite;
  tasks: number;
  withAnswer: number;
  withAliases: number;
  withSupportingTitles: number;
  /** Per metadata field, the count of each value. */
  breakdown: Record<string, Record<string, number>>;
}

/**
 * Adds `orchrm tasks check <file> [--suite gsm8k|math|aime|hotpotqa|musique|jsonl|auto]
 * [--question-field f] [--answer-field f] [--id-field f] [--json]`: loads and validates a task
 * file and prints its counts; every bad line is reported (exit code 2).
 */
export function registerTasksCommand(program: Command, streams: CommandStreams = processStreams): void {
  const tasks = program.commands.find((command) => command.name() === 'tasks') ?? program.command('tasks').description(commandSummary('tasks'));
  addOptions(tasks.command('check <file>').description('Validate a benchmark file (GSM8K, MATH, AIME, HotpotQA, MuSiQue or any JSONL) and print its counts.'), tasksCheckFlags)
    .addHelpText('after', ['', 'Examples:', '  orchrm tasks check gsm8k-test.jsonl', '  orchrm tasks check mine.jsonl --suite jsonl --question-field prompt --answer-field target'].join('\n'))
    .action(
      runAction(async (file: string, raw: Record<string, unknown>) => {
        const flags = tasksCheckFlags.parse(raw);
        const suite = flags.suite === 'auto' ? detectSuite(file) : flags.suite;
        const loaded = loadSuite(file, suite, {
          ...(flags.questionField !== undefined && { questionField: flags.questionField }),
          ...(flags.answerField !== undefined && { answerField: flags.answerField }),
          ...(flags.idField !== undefined && { idField: flags.idField }),
        });
        const report = taskFileReport(file, suite, loaded);
        streams.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatReport(report, flags.suite === 'auto'));
      }),
    );
}

/** Counts what a loaded file holds. */
export function taskFileReport(file: string, suite: Suite, tasks: readonly Task[]): TaskFileReport {
  const breakdown: Record<string, Record<string, number>> = {};
  for (const field of BREAKDOWN_FIELDS) {
    const counts: Record<string, number> = {};
    for (const task of tasks) {
      const value = task.metadata[field];
      if (typeof value === 'string' || typeof value === 'number') counts[String(value)] = (counts[String(value)] ?? 0) + 1;
    }
    if (Object.keys(counts).length > 0) breakdown[field] = counts;
  }
  return {
    file,
    suite,
    tasks: tasks.length,
    withAnswer: tasks.filter((task) => task.answer !== undefined).length,
    withAliases: tasks.filter((task) => (task.answerAliases?.length ?? 0) > 0).length,
    withSupportingTitles: tasks.filter((task) => supportingTitlesOf(task) !== undefined).length,
    breakdown,
  };
}

function formatReport(report: TaskFileReport, detected: boolean): string {
  const lines = [
    `${report.file}: valid ${report.suite} file${detected ? ' (format detected)' : ''}`,
    `  tasks              ${report.tasks}`,
    `  with gold answer   ${report.withAnswer}`,
    `  with aliases       ${report.withAliases}`,
    `  with supports      ${report.withSupportingTitles}`,
  ];
  for (const [field, counts] of Object.entries(report.breakdown)) {
    const values = Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([value, count]) => `${value} ${count}`);
    lines.push(`  by ${field.padEnd(16)}${values.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
