import type { Writable } from 'node:stream';

/** Where a command writes; tests pass their own streams. */
export interface CommandStreams {
  stdout: Writable;
  stderr: Writable;
}

export const processStreams: CommandStreams = { stdout: process.stdout, stderr: process.stderr };
