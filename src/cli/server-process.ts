import { z } from 'zod';
import { parseFlagValue } from './options-from-schema.js';

/** Resolves on the first SIGINT or SIGTERM; a second one then ends the process as usual. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(`${signal} received`);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** Parses a `--port` flag: 0 (any free port) to 65535. */
export const parsePort: (value: string) => number = parseFlagValue('--port', z.number().int().min(0).max(65535));
