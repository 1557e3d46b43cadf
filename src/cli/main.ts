#!/usr/bin/env node
import { Command } from 'commander';
import { ORCHRM_VERSION } from '../core/index.js';
import { COMMAND_CATALOG, listCatalogCommands } from './command-catalog.js';
import { USAGE_EXIT_CODE } from './run-action.js';

const program = new Command('orchrm')
  .description('Reward models over multi-agent orchestration plans, learned from execution artifacts without labels.')
  .version(ORCHRM_VERSION)
  .showHelpAfterError()
  // A mistake on the command line (an unknown option or command, a missing or refused value) exits 2, as
  // every command's own usage errors do (runAction) and as the help says; commander's own code is 1.
  // Subcommands inherit this, since they are added after it. Help and --version still exit 0.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE));

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
