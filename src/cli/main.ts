#!/usr/bin/env node
import { Command } from 'commander';
import { ORCHRM_VERSION } from '../core/index.js';
import { COMMAND_CATALOG, listCatalogCommands } from './command-catalog.js';

const program = new Command('orchrm')
  .description('Reward models over multi-agent orchestration plans, learned from execution artifacts without labels.')
  .version(ORCHRM_VERSION)
  .showHelpAfterError();

// The first argument that is not an option names the command (`orchrm help <command>` names the
// second). A named command loads only its own modules. Anything else (`--help`, `--version`, no
// command, an unknown one) is answered from the catalog: it lists every command, and commander
// suggests the nearest name for a typo, with no command module loaded.
const words = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const named = words[0] === 'help' ? words[1] : words[0];
const entry = COMMAND_CATALOG.find((candidate) => candidate.name === named);
if (entry) {
  for (const load of entry.load) (await load())(program);
} else {
  listCatalogCommands(program);
}

await program.parseAsync(process.argv);
