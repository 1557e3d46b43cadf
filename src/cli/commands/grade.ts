import { Option, type Command } from 'commander';
import { SUITES, gradeAnswer, type Suite } from '../../tasks/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

interface GradeFlags {
  suite: Suite;
  gold: string;
  pred: string;
  alias: string[];
  json: boolean;
}

/**
 * Adds `orchrm grade --suite <s> --gold <g> --pred <p> [--alias a]... [--json]`: grades one
 * answer with the suite's grader. `--json` prints `{"correct", "normalizedGold",
 * "normalizedPred", "method"}` (plus `"score"`, token F1, for hotpotqa and musique). Exit code 0
 * when correct, 1 when not.
 */
export function registerGradeCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('grade')
    .description(commandSummary('grade'))
    .addOption(new Option('--suite <suite>', 'grading rule').choices([...SUITES]).makeOptionMandatory())
    .requiredOption('--gold <answer>', 'the gold answer')
    .requiredOption('--pred <answer>', 'the answer to grade')
    .option('--alias <answer>', 'another accepted gold answer (repeatable)', (value: string, list: string[]) => [...list, value], [])
    .option('--json', 'print {"correct", "normalizedGold", "normalizedPred", "method"} as JSON', false)
    .addHelpText('after', ['', 'Examples:', "  orchrm grade --suite math --gold '\\frac{1}{2}' --pred 0.5", "  orchrm grade --suite gsm8k --gold 18 --pred '$18.00' --json"].join('\n'))
    .action(
      runAction((flags: GradeFlags) => {
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
