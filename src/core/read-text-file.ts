import { createReadStream, readFileSync } from 'node:fs';
import { UserError } from './errors.js';

/** A file holds bytes that are not UTF-8; names the file, the byte offset and the line. */
export class InvalidUtf8Error extends UserError {
  constructor(
    readonly path: string,
    /** 0-based offset of the first byte of the first character that is not valid UTF-8. */
    readonly byteOffset: number,
    /** 1-based line of that byte. */
    readonly line: number,
    readonly byte: number | undefined,
  ) {
    const what = byte === undefined ? 'the file ends inside a character' : `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} does not start a valid UTF-8 character`;
    super(
      `${path} is not valid UTF-8: at byte offset ${byteOffset} (line ${line}) ${what}; save the file as UTF-8 (for example: iconv -f latin1 -t utf-8 in > out)`,
    );
  }
}

/**
 * Checks UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) chunk by
 * chunk, so a large file need not be held in memory. Hand-written because Node's decoders either
 * replace bad bytes silently (`'utf8'`) or refuse them without saying where (`TextDecoder`
 * with `fatal`), and the error must name the offset.
 */
export class Utf8Validator {
  private offset = 0;
  private line = 1;
  /** Continuation bytes still expected, the range the next one must fall in, and where the character began. */
  private needed = 0;
  private lower = 0x80;
  private upper = 0xbf;
  private start = 0;
  private startLine = 1;
  private lead = 0;

  constructor(private readonly path: string) {}

  push(chunk: Uint8Array): void {
    for (let index = 0; index < chunk.length; index++, this.offset++) {
      const byte = chunk[index]!;
      if (this.needed > 0) {
        // Report the character's first byte: that is where a person looking at the file sees the problem.
        if (byte < this.lower || byte > this.upper) throw new InvalidUtf8Error(this.path, this.start, this.startLine, this.lead);
        this.lower = 0x80;
        this.upper = 0xbf;
        this.needed--;
        continue;
      }
      if (byte === 0x0a) this.line++;
      if (byte < 0x80) continue;
      this.start = this.offset;
      this.startLine = this.line;
      this.lead = byte;
      if (byte >= 0xc2 && byte <= 0xdf) this.needed = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.needed = 2;
        if (byte === 0xe0) this.lower = 0xa0; // no overlong 3-byte forms
        if (byte === 0xed) this.upper = 0x9f; // no UTF-16 surrogates
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.needed = 3;
        if (byte === 0xf0) this.lower = 0x90; // no overlong 4-byte forms
        if (byte === 0xf4) this.upper = 0x8f; // nothing above U+10FFFF
      } else throw new InvalidUtf8Error(this.path, this.offset, this.line, byte);
    }
  }

  /** Throws when the input ended in the middle of a character. */
  end(): void {
    if (this.needed > 0) throw new InvalidUtf8Error(this.path, this.start, this.startLine, undefined);
  }
}

const decoder = new TextDecoder('utf-8');

/**
 * Reads a whole text file as UTF-8, refusing bytes that are not (InvalidUtf8Error names the
 * file, byte offset and line) instead of replacing them with U+FFFD. A leading byte-order mark
 * is dropped.
 *
 * @example
 * const text = readTextFile('tasks.jsonl');
 */
export function readTextFile(path: string): string {
  const bytes = readFileSync(path);
  const validator = new Utf8Validator(path);
  validator.push(bytes);
  validator.end();
  return decoder.decode(bytes);
}

/**
 * The lines of a UTF-8 text file, read as a stream (for corpora and JSONL files of any size).
 * Bytes that are not UTF-8 raise InvalidUtf8Error when reached; a leading byte-order mark is
 * dropped; `\r\n` and `\n` both end a line.
 *
 * @example
 * for await (const line of readTextLines('corpus.jsonl')) index(JSON.parse(line));
 */
export async function* readTextLines(path: string): AsyncGenerator<string> {
  const validator = new Utf8Validator(path);
  const streamDecoder = new TextDecoder('utf-8');
  let pending = '';
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    validator.push(bytes);
    pending += streamDecoder.decode(bytes, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  validator.end();
  pending += streamDecoder.decode();
  if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}
