import { readFileSync } from 'node:fs';

/** orchrm's version, read from package.json (two levels up from both src/core and dist/core). */
export const ORCHRM_VERSION: string = (() => {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed = JSON.parse(text) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
})();
