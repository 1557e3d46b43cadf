import { Command } from 'commander';
import { vi } from 'vitest';

export interface CommandOutput {
  stdout: string;
  stderr: string;
  /** process.exitCode after the command; undefined means 0. */
  exitCode: number | undefined;
}

/**
 * Runs one `orchrm` command in-process (far cheaper than spawning the CLI), capturing what it
 * writes to stdout and stderr and the exit code it sets. `during` runs while the command does,
 * e.g. to send it SIGINT.
 */
export async function runCommand(register: (program: Command) => void, args: readonly string[]): Promise<CommandOutput> {
  const program = new Command('orchrm').exitOverride();
  register(program);
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  const previousExitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'orchrm', ...args]);
    return { stdout: out.join(''), stderr: err.join(''), exitCode: process.exitCode as number | undefined };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = previousExitCode;
  }
}
