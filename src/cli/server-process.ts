import { z } from 'zod';

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

/** What a server's `--port` flag may say: 0 (any free port) to 65535. */
export const PortSchema = z.number().int().min(0).max(65535);
