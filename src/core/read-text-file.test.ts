import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCorpus } from '../tasks/corpus.js';
import { loadSuite } from '../tasks/load-suite.js';
import { loadTaskFile } from '../tasks/task-file.js';
import { InvalidUtf8Error, LineTooLongError, readTextFile, readTextLines, Utf8Validator } from './read-text-file.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-utf8-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function offsetOf(bytes: number[]): number | 'valid' {
  const validator = new Utf8Validator('x');
  try {
    validator.push(Uint8Array.from(bytes));
    validator.end();
    return 'valid';
  } catch (error) {
    return (error as InvalidUtf8Error).byteOffset;
  }
}

describe('Utf8Validator', () => {
  it('accepts UTF-8 and refuses overlong forms, surrogates, stray continuations and truncation', () => {
    expect(offsetOf([...Buffer.from('añ€😀 ok')])).toBe('valid');
    expect(offsetOf([0x61, 0xff])).toBe(1);
    expect(offsetOf([0x61, 0x80])).toBe(1); // a continuation byte with no lead
    expect(offsetOf([0xc0, 0xaf])).toBe(0); // overlong '/'
    expect(offsetOf([0xe0, 0x80, 0xaf])).toBe(0); // overlong 3-byte
    expect(offsetOf([0xed, 0xa0, 0x80])).toBe(0); // UTF-16 surrogate
    expect(offsetOf([0xf4, 0x90, 0x80, 0x80])).toBe(0); // above U+10FFFF
    expect(offsetOf([0x61, 0xe2, 0x82])).toBe(1); // ends inside a character
  });

  it('checks across chunk boundaries', () => {
    const validator = new Utf8Validator('x');
    const euro = [...Buffer.from('€')];
    validator.push(Uint8Array.from(euro.slice(0, 1)));
    validator.push(Uint8Array.from(euro.slice(1)));
    expect(() => validator.end()).not.toThrow();
  });
});

describe('readTextFile and readTextLines', () => {
  it('name the file, byte offset and line of the first bad byte', async () => {
    const path = join(directory, 'tasks.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from('{"id": "a", "question": "ok"}\n{"id": "b", "question": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const message = `${path} is not valid UTF-8: at byte offset 58 (line 2) byte 0xE9 does not start a valid UTF-8 character; save the file as UTF-8`;
    expect(() => readTextFile(path)).toThrow(message);
    expect(() => loadTaskFile(path)).toThrow(message);
    expect(() => loadSuite(path, 'jsonl')).toThrow(message);
    await expect(loadCorpus(path)).rejects.toThrow(message);
    const lines: string[] = [];
    await expect(async () => {
      for await (const line of readTextLines(path)) lines.push(line);
    }).rejects.toThrow(InvalidUtf8Error);
  });

  it('drop a byte-order mark and read CRLF lines', async () => {
    const path = join(directory, 'bom.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo ü\r\n')]));
    expect(readTextFile(path)).toBe('one\r\ntwo ü\r\n');
    const lines: string[] = [];
    for await (const line of readTextLines(path)) lines.push(line);
    expect(lines).toEqual(['one', 'two ü']);
  });
});

describe('readTextLines on long lines', () => {
  const read = async (path: string, options?: { maxLineChars?: number }) => {
    const lines: string[] = [];
    for await (const line of readTextLines(path, options)) lines.push(line);
    return lines;
  };

  it('reads lines spanning many chunks exactly, with CRLF ends and a last line without one', async () => {
    const path = join(directory, 'long.jsonl');
    const long = 'é'.repeat(300_000) + 'x'.repeat(300_001);
    writeFileSync(path, `short\r\n${long}\r\n\n${long}`);
    expect(await read(path)).toEqual(['short', long, '', long]);
  });

  it('refuses a line longer than the limit as soon as it is seen, naming the file and the line', async () => {
    const path = join(directory, 'one-line.jsonl');
    writeFileSync(path, `{"a":1}\n${'x'.repeat(2_000_000)}\n{"b":2}\n`);
    await expect(read(path, { maxLineChars: 1_000_000 })).rejects.toThrow(new LineTooLongError(path, 2, 1_000_000));
    await expect(read(path, { maxLineChars: 1_000_000 })).rejects.toThrow(/line 2 is longer than 1000000 characters/);
    expect(await read(path, { maxLineChars: 2_000_000 })).toHaveLength(3);
  });
});
