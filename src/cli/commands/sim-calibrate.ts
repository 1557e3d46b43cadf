import type { Command } from 'commander';
import { z } from 'zod';
import { calibrateScenario, type CalibrationReport, createSimEnvironment, loadScenario } from '../../sim/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { createCliEvents } from '../progress.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { simCommand } from './sim.js';

const CalibrateFlagsSchema = z.object({
  scenario: z.string().default('default').meta({ placeholder: 'name|file', description: 'scenario to measure' }),
  tasks: z.number().int().min(1).default(200).meta({ description: 'test tasks executed' }),
  plansPerTask: z.number().int().min(1).default(8).meta({ description: 'base-policy plans per task, for oracle@N' }),
  executionsPerKind: z.number().int().min(1).default(1).meta({ description: 'executions of each fixed kind per task (averages out luck in the per-task-type bests)' }),
  seed: z.number().int().min(0).default(0).meta({ description: 'seed of the episodes' }),
  json: z.boolean().default(false).meta({ description: 'print the report as JSON on stdout' }),
});
const calibrateFlags = optionsFromSchema(CalibrateFlagsSchema);

/** `orchrm sim calibrate`: measures by execution whether plan choice matters in a scenario. */
export function registerSimCalibrateCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(
    simCommand(program).command('calibrate').description('Execute fixed plan kinds and base-policy plans on test tasks; report whether plan choice matters (docs/sim.md).'),
    calibrateFlags,
  ).action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = calibrateFlags.parse(raw);
        const environment = await createSimEnvironment(loadScenario(flags.scenario));
        const progress = createCliEvents({ stderr: streams.stderr, bars: { calibrate: {} } });
        const report = await calibrateScenario(environment, {
          tasks: flags.tasks,
          plansPerTask: flags.plansPerTask,
          executionsPerKind: flags.executionsPerKind,
          seed: flags.seed,
          events: progress.sink,
        });
        progress.close();
        streams.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
      }),
    );
}

const EXPECTED: Record<'bestFixedPlanGap' | 'baseVsOracleGap' | 'execTokenSpread' | 'planTokenShare', string> = { bestFixedPlanGap: '>= 8', baseVsOracleGap: '>= 15', execTokenSpread: '>= 10', planTokenShare: '<= 0.10' };

function formatReport(report: CalibrationReport): string {
  const families = Object.keys(report.tasksPerFamily);
  const lines = [
    `scenario ${report.scenario}: ${report.tasks} test tasks (${families.map((family) => `${family} ${report.tasksPerFamily[family]}`).join(', ')}), seed ${report.seed}`,
    '',
    ...(Object.entries(EXPECTED) as [keyof typeof EXPECTED, string][]).map(([name, expectation]) => `  ${name.padEnd(18)} ${String(report[name]).padStart(8)}   (default scenario expects ${expectation})`),
    '',
    `  base policy: accuracy ${pct(report.base.accuracy)}, oracle@${report.base.plansPerTask} ${pct(report.base.oracleAtN)}, ${report.base.meanOrchestratorTokens.toFixed(0)} plan tokens, ${report.base.meanExecutionTokens.toFixed(0)} execution tokens per plan`,
    '',
    `  ${'plan kind'.padEnd(16)} ${'accuracy'.padStart(8)} ${families.map((family) => family.padStart(9)).join(' ')} ${'exec tokens'.padStart(12)}`,
    ...Object.entries(report.kinds).map(
      ([name, kind]) =>
        `  ${name.padEnd(16)} ${pct(kind.accuracy).padStart(8)} ${families.map((family) => pct(kind.perFamily[family] ?? 0).padStart(9)).join(' ')} ${kind.meanExecutionTokens.toFixed(0).padStart(12)}`,
    ),
    '',
    `  within-family dependence: ${report.withinFamilyGap} points (best fixed kind per task type over each family's best; ${report.executionsPerKind} execution(s) per kind and task)`,
    ...Object.entries(report.withinFamily).flatMap(([family, entry]) => [
      `    ${family}: best ${entry.familyBest.kind} ${pct(entry.familyBest.accuracy)}; by ${entry.axis}: gap ${entry.gap} points, another kind is best for ${pct(entry.differingShare)} of tasks`,
      ...entry.buckets.map((bucket) => `      ${entry.axis} ${bucket.value} (${bucket.tasks} tasks): ${bucket.bestKind} ${pct(bucket.accuracy)} vs ${entry.familyBest.kind} ${pct(bucket.familyBestAccuracy)}`),
    ]),
    '',
    ...routingBoundLines(report),
  ];
  return lines.join('\n');
}

function routingBoundLines(report: CalibrationReport): string[] {
  const bound = report.routingBound;
  if (bound === undefined) return ['  routing bound: needs --executions-per-kind 2 or more', ''];
  const best = bound.bestFixedPerFamily;
  return [
    `  routing bound: execution tokens at best-fixed-per-family's accuracy (${pct(best.accuracy)}, ${best.executionTokens.toFixed(0)} tokens: ${Object.entries(best.kinds).map(([family, kind]) => `${family} ${kind}`).join(', ')}),`,
    `  routers estimating from ${bound.estimateExecutions} execution(s) per kind and task, judged on the other ${bound.judgeExecutions}:`,
    ...bound.routers.map(({ knows, point }) => `    knows the ${knows.padEnd(19)} ${point === null ? 'never matches' : `${point.executionTokens.toFixed(0).padStart(6)} tokens, ${pct(point.share).padStart(6)} of best-fixed-per-family's (accuracy ${pct(point.accuracy)} at price ${point.pricePerToken === 0 ? 0 : point.pricePerToken.toPrecision(2)})`}`),
    '',
  ];
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
