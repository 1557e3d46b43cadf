import { InvalidArgumentError } from 'commander';

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
export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`--port must be an integer from 0 to 65535, got "${value}"`);
  return port;
}
