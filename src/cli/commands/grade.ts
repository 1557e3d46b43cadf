import type { Command } from 'commander';
import { z } from 'zod';
import { gradeAnswer, SuiteSchema } from '../../tasks/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

const GradeFlagsSchema = z.object({
  suite: SuiteSchema.meta({ placeholder: 'suite', description: 'grading rule' }),
  gold: z.string().meta({ placeholder: 'answer', description: 'the gold answer' }),
  pred: z.string().meta({ placeholder: 'answer', description: 'the answer to grade' }),
  alias: z.array(z.string()).default([]).meta({ placeholder: 'answer', description: 'another accepted gold answer (repeatable)' }),
  json: z.boolean().default(false).meta({ description: 'print {"correct", "normalizedGold", "normalizedPred", "method"} as JSON' }),
});
const gradeFlags = optionsFromSchema(GradeFlagsSchema);

/**
 * Adds `orchrm grade --suite <s> --gold <g> --pred <p> [--alias a]... [--json]`: grades one
 * answer with the suite's grader. `--json` prints `{"correct", "normalizedGold",
 * "normalizedPred", "method"}` (plus `"score"`, token F1, for hotpotqa and musique). Exit code 0
 * when correct, 1 when not.
 */
export function registerGradeCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('grade').description(commandSummary('grade')), gradeFlags)
    .addHelpText('after', ['', 'Examples:', "  orchrm grade --suite math --gold '\\frac{1}{2}' --pred 0.5", "  orchrm grade --suite gsm8k --gold 18 --pred '$18.00' --json"].join('\n'))
    .action(
      runAction((raw: Record<string, unknown>) => {
        const flags = gradeFlags.parse(raw);
        const { correct, normalizedGold, normalizedPred, method, score } = gradeAnswer(flags.suite, flags.gold, flags.pred, flags.alias);
        if (flags.json) {
          streams.stdout.write(`${JSON.stringify({ correct, normalizedGold, normalizedPred, method, ...(score !== undefined && { score }) })}\n`);
        } else {
          const f1 = score === undefined ? '' : ` (token F1 ${score.toFixed(3)})`;
          streams.stdout.write(`${correct ? 'correct' : 'incorrect'} by ${method}${f1}\n  gold ${JSON.stringify(normalizedGold)}\n  pred ${JSON.stringify(normalizedPred)}\n`);
        }
        process.exitCode = correct ? 0 : 1;
      }),
    );
}
