#!/usr/bin/env node
import { Command } from 'commander';
import { ORCHRM_VERSION } from '../core/version.js';
import { registerCollectCommand } from './commands/collect.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerLoopCommand } from './commands/loop.js';
import { registerExportCommand } from './commands/export.js';
import { registerImportCommand } from './commands/import.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerPlanCheckCommand } from './commands/plan-check.js';
import { registerSimCommand } from './commands/sim.js';
import { registerSimCalibrateCommand } from './commands/sim-calibrate.js';
import { registerSimImproveCommand } from './commands/sim-improve.js';
import { registerGradeCommand } from './commands/grade.js';
import { registerRetrieveCommand } from './commands/retrieve.js';
import { registerTasksCommand } from './commands/tasks.js';
import { registerRmCommand } from './commands/rm.js';
import { registerPairsCommand } from './commands/pairs.js';
import { registerServeCommand } from './commands/serve.js';
import { registerBonCommand } from './commands/bon.js';
import { registerGrpoCommand } from './commands/grpo.js';
import { registerReportCommand } from './commands/report.js';

const program = new Command('orchrm')
  .description('Reward models over multi-agent orchestration plans, learned from execution artifacts without labels.')
  .version(ORCHRM_VERSION)
  .showHelpAfterError();

registerDemoCommand(program);
registerLoopCommand(program);
registerCollectCommand(program);
registerInspectCommand(program);
registerExportCommand(program);
registerImportCommand(program);
registerPlanCheckCommand(program);
registerSimCommand(program);
registerSimCalibrateCommand(program);
registerSimImproveCommand(program);
registerTasksCommand(program);
registerGradeCommand(program);
registerRetrieveCommand(program);
registerPairsCommand(program);
registerRmCommand(program);
registerBonCommand(program);
registerGrpoCommand(program);
registerServeCommand(program);
registerReportCommand(program);

await program.parseAsync(process.argv);
