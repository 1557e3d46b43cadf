#!/usr/bin/env node
import { Command } from 'commander';
import { ORCHRM_VERSION } from '../core/version.js';

type Register = (program: Command) => void;

/**
 * Every command's module, loaded only when its command runs: importing them all costs seconds
 * (mathjs for grading, vega for reports) that `orchrm grade` or `orchrm --version` should not
 * pay. Listed in the order `orchrm --help` shows them.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<Register>])[] = [
  ['demo', async () => (await import('./commands/demo.js')).registerDemoCommand],
  ['loop', async () => (await import('./commands/loop.js')).registerLoopCommand],
  ['collect', async () => (await import('./commands/collect.js')).registerCollectCommand],
  ['inspect', async () => (await import('./commands/inspect.js')).registerInspectCommand],
  ['export', async () => (await import('./commands/export.js')).registerExportCommand],
  ['import', async () => (await import('./commands/import.js')).registerImportCommand],
  ['plan', async () => (await import('./commands/plan-check.js')).registerPlanCheckCommand],
  ['sim', async () => (await import('./commands/sim.js')).registerSimCommand],
  ['sim', async () => (await import('./commands/sim-calibrate.js')).registerSimCalibrateCommand],
  ['sim', async () => (await import('./commands/sim-improve.js')).registerSimImproveCommand],
  ['tasks', async () => (await import('./commands/tasks.js')).registerTasksCommand],
  ['grade', async () => (await import('./commands/grade.js')).registerGradeCommand],
  ['retrieve', async () => (await import('./commands/retrieve.js')).registerRetrieveCommand],
  ['pairs', async () => (await import('./commands/pairs.js')).registerPairsCommand],
  ['rm', async () => (await import('./commands/rm.js')).registerRmCommand],
  ['bon', async () => (await import('./commands/bon.js')).registerBonCommand],
  ['grpo', async () => (await import('./commands/grpo.js')).registerGrpoCommand],
  ['serve', async () => (await import('./commands/serve.js')).registerServeCommand],
  ['report', async () => (await import('./commands/report.js')).registerReportCommand],
];

const program = new Command('orchrm')
  .description('Reward models over multi-agent orchestration plans, learned from execution artifacts without labels.')
  .version(ORCHRM_VERSION)
  .showHelpAfterError();

// The first argument that is not an option names the command; without one (help, --version) or
// with an unknown one (so commander can suggest the right name), every command is registered.
const named = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
const wanted = COMMANDS.some(([name]) => name === named) ? COMMANDS.filter(([name]) => name === named) : named === undefined && (process.argv.includes('--version') || process.argv.includes('-V')) ? [] : COMMANDS;
for (const [, load] of wanted) (await load())(program);

await program.parseAsync(process.argv);
