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

/** A line longer than a reader accepts; names the file, the line and the limit. */
export class LineTooLongError extends UserError {
  constructor(
    readonly path: string,
    /** 1-based. */
    readonly line: number,
    readonly maxLineChars: number,
  ) {
    super(`${path}: line ${line} is longer than ${maxLineChars} characters, the most a line may hold; is it a JSONL file (one record per line)? Split the record or pass a larger maxLineChars`);
  }
}

/**
 * Longest line `readTextLines` accepts by default: 128 Mi characters (an episode with every
 * prompt kept is a few MB), so a file without line breaks cannot take all memory.
 */
export const DEFAULT_MAX_LINE_CHARS = 128 * 1024 * 1024;

/**
 * The lines of a UTF-8 text file, read as a stream (for corpora and JSONL files of any size), in
 * time linear in the file's length and memory bounded by the longest line: a line longer than
 * `maxLineChars` raises LineTooLongError as soon as it is seen. Bytes that are not UTF-8 raise
 * InvalidUtf8Error when reached; a leading byte-order mark is dropped; `\r\n` and `\n` both end a line.
 *
 * @example
 * for await (const line of readTextLines('corpus.jsonl')) index(JSON.parse(line));
 */
export async function* readTextLines(path: string, options: { maxLineChars?: number } = {}): AsyncGenerator<string> {
  const { maxLineChars = DEFAULT_MAX_LINE_CHARS } = options;
  const validator = new Utf8Validator(path);
  const streamDecoder = new TextDecoder('utf-8');
  // The unfinished line's pieces, joined once when its end arrives: appending to one string and
  // splitting it again on every chunk made a long line cost the square of its length.
  let pieces: string[] = [];
  let pendingChars = 0;
  let lineNumber = 1;
  const take = (piece: string): string => {
    if (pendingChars + piece.length > maxLineChars) throw new LineTooLongError(path, lineNumber, maxLineChars);
    const line = pieces.length === 0 ? piece : pieces.join('') + piece;
    pieces = [];
    pendingChars = 0;
    lineNumber++;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  const keep = (piece: string): void => {
    pendingChars += piece.length;
    if (pendingChars > maxLineChars) throw new LineTooLongError(path, lineNumber, maxLineChars);
    pieces.push(piece);
  };
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    validator.push(bytes);
    const text = streamDecoder.decode(bytes, { stream: true });
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      yield take(text.slice(start, newline));
      start = newline + 1;
    }
    if (start < text.length) keep(text.slice(start));
  }
  validator.end();
  const rest = streamDecoder.decode();
  if (rest !== '') keep(rest);
  if (pendingChars > 0) yield take('');
}
