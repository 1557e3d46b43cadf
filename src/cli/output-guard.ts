import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { UserError } from '../core/index.js';

/** The `--force` flag of every command that writes a file (spread into its flag schema). */
export const forceFlag = {
  force: z.boolean().default(false).meta({ description: 'replace an output that already exists (an input of the command is never replaced)' }),
};

/** A path a command reads or writes, with the flag (or argument) that named it. */
export interface NamedPath {
  readonly flag: string;
  /** Undefined (not given) and `-` (stdout or stdin) are skipped. */
  readonly path: string | undefined;
}

/**
 * The path a file would have once symbolic links are followed: its real path when it exists,
 * else its folder's real path joined with its name (a file not yet written can only equal an
 * input through its folder).
 */
function realPathOf(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const folder = dirname(absolute);
  return existsSync(folder) ? join(realpathSync(folder), basename(absolute)) : absolute;
}

/**
 * Refuses an output that is one of the command's inputs, compared by real path (`./runs.db`, an
 * absolute path or a link to it are the same file). For outputs a command adds to, such as the
 * `--db` of collect or import, which may exist but must not be the file the tasks are read from.
 */
export function refuseInputsAsOutputs(inputs: readonly NamedPath[], outputs: readonly NamedPath[]): void {
  const real = named(inputs).map((input) => ({ ...input, real: realPathOf(input.path) }));
  for (const output of named(outputs)) {
    const input = real.find((candidate) => candidate.real === realPathOf(output.path));
    if (input !== undefined) {
      throw new UserError(`${output.flag} ${output.path} is the file ${input.flag} reads (${input.path}); writing it would destroy the input. Give ${output.flag} another path`);
    }
  }
}

/**
 * The one check before a command writes a file: refuses an output that is one of the command's
 * inputs (`--force` does not lift this) and an output that already exists unless `force`. Both
 * are usage errors (exit code 2) that name the flags; nothing has been read or written when it
 * throws.
 *
 * @example guardOutputs({ inputs: [{ flag: '--db', path: flags.db }], outputs: [{ flag: '--out', path: flags.out }], force: flags.force });
 */
export function guardOutputs(options: { inputs: readonly NamedPath[]; outputs: readonly NamedPath[]; force: boolean }): void {
  refuseInputsAsOutputs(options.inputs, options.outputs);
  if (options.force) return;
  for (const output of named(options.outputs)) {
    if (!existsSync(output.path)) continue;
    const kind = statSync(output.path).isDirectory() ? 'folder' : 'file';
    throw new UserError(`${output.flag} ${output.path}: the ${kind} exists; pass --force to replace it, or give ${output.flag} another path`);
  }
}

/**
 * The check before a command writes a set of files into a folder (`demo --out`): refuses a
 * `--out` that is a file, and a folder that already holds any of `files` unless `force`, saying
 * what holds them and how to go on.
 */
export function guardOutputFolder(folder: string, files: readonly string[], options: { force: boolean; earlier: string; forceHint?: string }): void {
  if (!existsSync(folder)) return;
  if (!statSync(folder).isDirectory()) throw new UserError(`--out ${folder} is a file; this command writes a folder of files there. Give --out a folder (it is created when missing)`);
  const existing = files.filter((file) => existsSync(join(folder, file)));
  if (existing.length > 0 && !options.force) {
    throw new UserError(`--out ${folder} holds the results of ${options.earlier} (${existing.join(', ')}); pass --force to replace them${options.forceHint ?? ''}, or give --out another folder`);
  }
}

function named(paths: readonly NamedPath[]): { flag: string; path: string }[] {
  return paths.filter((entry): entry is { flag: string; path: string } => entry.path !== undefined && entry.path !== '-');
}
