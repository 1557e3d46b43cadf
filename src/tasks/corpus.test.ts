import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidInputError, UserError } from '../core/errors.js';
import { loadCorpus } from './corpus.js';

const directory = mkdtempSync(join(tmpdir(), 'orchrm-corpus-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function corpusFile(name: string, lines: readonly string[]): string {
  const path = join(directory, name);
  writeFileSync(path, lines.join('\n'));
  return path;
}

describe('loadCorpus', () => {
  it('reads documents, skipping blank lines, with numeric ids and missing titles', async () => {
    const path = corpusFile('good.jsonl', [
      '{"id": "a", "title": "Alpha", "text": "first", "url": "ignored"}',
      '',
      '{"id": 7, "text": "seventh"}\r',
    ]);
    expect(await loadCorpus(path)).toEqual([
      { id: 'a', title: 'Alpha', text: 'first' },
      { id: '7', title: '', text: 'seventh' },
    ]);
  });

  it('names the file and line of every bad line', async () => {
    const path = corpusFile('bad.jsonl', [
      '{"id": "a", "title": "A", "text": "ok"}',
      '{"id": "b", "title": "B", "text": ',
      '{"id": "c", "title": 3, "text": "x"}',
      '{"id": "a", "text": "again"}',
      '{"id": "", "text": "x"}',
    ]);
    const error = await loadCorpus(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    const message = (error as Error).message;
    expect(message).toContain(`corpus file ${path} is invalid:`);
    expect(message).toMatch(/line 2: not valid JSON/);
    expect(message).toContain('line 3: title:');
    expect(message).toContain('line 4: id: duplicate id "a" (first used on line 1)');
    expect(message).toContain('line 5: id:');
    expect((error as InvalidInputError).issues.map((issue) => issue.path)).toEqual(['line 2', 'line 3: title', 'line 4: id', 'line 5: id']);
  });

  it('says which file could not be read', async () => {
    const missing = join(directory, 'missing.jsonl');
    await expect(loadCorpus(missing)).rejects.toThrow(UserError);
    await expect(loadCorpus(missing)).rejects.toThrow(`cannot read corpus file ${missing}`);
  });
});
