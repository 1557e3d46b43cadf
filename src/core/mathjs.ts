import { createRequire } from 'node:module';
import type * as MathJs from 'mathjs';

let loadedMathjs: typeof MathJs | undefined;

/**
 * mathjs, required on first use rather than imported: loading it takes about a second, and only
 * math grading and fitting a template router's prices need it, so `orchrm --help`, `plan check`
 * and every library user that does neither would otherwise pay for it at start-up.
 */
export function mathjs(): typeof MathJs {
  loadedMathjs ??= createRequire(import.meta.url)('mathjs') as typeof MathJs;
  return loadedMathjs;
}
