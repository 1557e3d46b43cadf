import { connect } from 'node:net';

/** A parsed HTTP/1.1 answer read off a raw socket. */
export interface RawAnswer {
  /** `HTTP/1.1 400 Bad Request (...)`, reason phrase included. */
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Opens a TCP connection, lets `drive` write whatever it wants (partial requests, garbage,
 * pauses), and resolves with the first answer once the server closes the connection or the
 * whole answer (by content-length) has arrived. For tests of what well-behaved clients never send.
 */
export function rawExchange(port: number, drive: (write: (text: string) => void) => void | Promise<void>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = () => {
      socket.destroy();
      const answer = parseAnswer(received);
      if (answer) resolve(answer);
      else reject(new Error(`no complete HTTP answer; received ${JSON.stringify(received)}`));
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (parseAnswer(received)) finish();
    });
    socket.on('error', (error) => (received ? finish() : reject(error)));
    socket.on('close', finish);
    socket.on('connect', () => {
      Promise.resolve(drive((text) => socket.write(text))).catch(reject);
    });
  });
}

function parseAnswer(text: string): RawAnswer | undefined {
  const headerEnd = text.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const [statusLine = '', ...headerLines] = text.slice(0, headerEnd).split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const body = text.slice(headerEnd + 4);
  if (Buffer.byteLength(body) < Number(headers['content-length'] ?? 0)) return undefined;
  return { statusLine, status: Number(statusLine.split(' ')[1]), headers, body };
}
