import { InvalidArgumentError } from 'commander';
import { OrchrmError, UserError } from '../core/errors.js';

/**
 * Wraps a command's action: errors the user can fix print their message and exit with code 2;
 * anything else is a bug and prints its stack.
 */
export function runAction<A extends unknown[]>(action: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      if (error instanceof UserError || error instanceof OrchrmError) {
        process.stderr.write(`orchrm: ${error.message}\n`);
      } else {
        process.stderr.write(`orchrm: unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}\n`);
      }
      process.exitCode = 2;
    }
  };
}

/** Parses an integer flag, naming the flag in the error. */
export function parseIntegerOption(flag: string, minimum: number): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < minimum) {
      throw new InvalidArgumentError(`${flag} must be an integer >= ${minimum}, got "${value}"`);
    }
    return parsed;
  };
}
