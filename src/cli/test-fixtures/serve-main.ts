// `orchrm serve` alone: the real command and its signal handling, without loading every other
// command (the full CLI takes seconds to start under tsx here).
import { Command } from 'commander';
import { registerServeCommand } from '../commands/serve.js';

const program = new Command('orchrm');
registerServeCommand(program);
await program.parseAsync(process.argv);
