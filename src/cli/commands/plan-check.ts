import type { Command } from 'commander';
import { z } from 'zod';
import { type Diagnostic, DomSchema, InvalidUtf8Error, type PlanWarning, readTextFile } from '../../core/index.js';
import { checkPlanText, type PlanCheckResult } from '../../plan/index.js';
import { commandSummary } from '../command-catalog.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';

/** Where the command writes; tests pass collectors, the CLI uses the process streams. */
export interface PlanCheckOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const PlanCheckFlagsSchema = z.object({
  json: z.boolean().default(false).meta({ description: 'print {"ok", "plan", "diagnostics", "warnings", "format"} as JSON' }),
  format: z.enum(['auto', 'json', 'xml']).default('auto').meta({ placeholder: 'format', description: 'plan format' }),
  dom: DomSchema.optional().meta({ placeholder: 'dom', description: 'degree of MAS the plan must respect' }),
});
const planCheckFlags = optionsFromSchema(PlanCheckFlagsSchema);

const processOutput: PlanCheckOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Adds `orchrm plan check <file> [--json] [--format auto|json|xml] [--dom low|high]`: parses and
 * validates a plan file, prints its canonical rendering or the diagnostics. Exit code 0 when
 * valid, 1 when not, 2 when the file cannot be read.
 */
export function registerPlanCheckCommand(program: Command, output: PlanCheckOutput = processOutput): void {
  const plan = program.commands.find((command) => command.name() === 'plan') ?? program.command('plan').description(commandSummary('plan'));
  addOptions(plan.command('check <file>').description('Parse and validate a plan (JSON or MAS-Orchestra XML); print its canonical form or what is wrong.'), planCheckFlags)
    .action(async (file: string, raw: Record<string, unknown>) => {
      const flags = planCheckFlags.parse(raw);
      let text: string;
      try {
        text = readTextFile(file);
      } catch (error) {
        if (error instanceof InvalidUtf8Error) {
          output.stderr(`orchrm: ${error.message}\n`);
          process.exitCode = 2;
          return;
        }
        const reason = error instanceof Error ? error.message : String(error);
        output.stderr(`orchrm: cannot read plan file "${file}" (${reason}); check the path and permissions\n`);
        process.exitCode = 2;
        return;
      }
      const result = checkPlanText(text, { format: flags.format, ...(flags.dom !== undefined && { dom: flags.dom }) });
      output.stdout(flags.json ? `${JSON.stringify(toJson(result))}\n` : formatReport(result));
      process.exitCode = result.ok ? 0 : 1;
    });
}

function toJson(result: PlanCheckResult) {
  const { ok, plan, diagnostics, warnings, format } = result;
  return { ok, plan, diagnostics, warnings, format };
}

const line = (item: Diagnostic | PlanWarning) => `  - [${item.code}] ${item.path || '(plan)'}: ${item.message}\n`;

function formatReport(result: PlanCheckResult): string {
  const header = result.ok
    ? `valid plan (${result.format})\n\n${result.rendered}\n`
    : `invalid plan (${result.format}): ${result.diagnostics.length} problem(s)\n${result.diagnostics.map(line).join('')}`;
  const warnings = result.warnings.length > 0 ? `\nwarnings:\n${result.warnings.map(line).join('')}` : '';
  return header + warnings;
}
