import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_CATALOG, listCatalogCommands } from './command-catalog.js';

const newProgram = () => new Command('orchrm').description('orchrm').configureOutput({ getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });

describe('the command catalog', () => {
  it('lists every command exactly as its own module registers it', async () => {
    const loaded = newProgram();
    for (const entry of COMMAND_CATALOG) for (const load of entry.load) (await load())(loaded);
    const listed = newProgram();
    listCatalogCommands(listed);
    expect(listed.helpInformation()).toBe(loaded.helpInformation());
    expect(listed.commands.map((command) => command.name())).toEqual(loaded.commands.map((command) => command.name()));
  }, 60_000);

  it('names each command once', () => {
    const names = COMMAND_CATALOG.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
