#!/usr/bin/env node
import { Command } from 'commander';

const program = new Command('orchrm')
  .description('Reward models over multi-agent orchestration plans, learned from execution artifacts without labels.')
  .version('0.1.0');

await program.parseAsync(process.argv);
