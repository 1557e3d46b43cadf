import { OrchrmError, SystemError } from '../core/index.js';

/** The exit code of a usage error (a bad flag, file or value), and of any error a command's action throws. */
export const USAGE_EXIT_CODE = 2;

/**
 * Wraps a command's action. The error's category decides what is printed: a user's mistake, a
 * model's unusable output or a failing server prints its message, which says how to fix it; a
 * bug (a `SystemError`, or anything outside the error tree) prints its stack to be reported.
 * Either way the exit code is 2.
 */
export function runAction<A extends unknown[]>(action: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      if (error instanceof OrchrmError && !(error instanceof SystemError)) {
        process.stderr.write(`orchrm: ${error.message}\n`);
      } else {
        process.stderr.write(`orchrm: unexpected error (please report it): ${(error as Error)?.stack ?? String(error)}\n`);
      }
      process.exitCode = USAGE_EXIT_CODE;
    }
  };
}
