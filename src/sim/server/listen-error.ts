import { UserError } from '../../core/errors.js';

/** Bind failures are the user's to fix (another port or host), so they become UserErrors that say how. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE') return new UserError(`${where} is already in use; choose another port (port 0 picks a free one)`, { cause: error });
  if (error.code === 'EACCES') return new UserError(`no permission to listen on ${where}; use a port above 1023`, { cause: error });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return new UserError(`cannot listen on host ${host}: it is not an address of this machine; use 127.0.0.1`, { cause: error });
  }
  return error;
}
