import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

let directory: string;
let store: Store;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-result-store-'));
  store = openStore(join(directory, 'store.db'), { now: () => new Date(Date.UTC(2026, 1, 2)) });
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('results', () => {
  it('stores a payload under a run and reads it back by kind', () => {
    const runId = store.createRun({ kind: 'bon', config: {} }).id;
    const id = store.insertResult({ runId, kind: 'bon', payload: { n: 8, strategies: { rm: { accuracy: 0.5 } } } });
    store.insertResult({ kind: 'other', payload: {} });
    expect(store.listResults('bon')).toEqual([
      { id, runId, kind: 'bon', payload: { n: 8, strategies: { rm: { accuracy: 0.5 } } }, createdAt: '2026-02-02T00:00:00.000Z' },
    ]);
    expect(store.listResults()).toHaveLength(2);
  });

  it('refuses a result without a kind, or under an unknown run', () => {
    expect(() => store.insertResult({ kind: '', payload: {} })).toThrow(InvalidInputError);
    expect(() => store.insertResult({ runId: 'no-such-run', kind: 'bon', payload: {} })).toThrow(/FOREIGN KEY/);
  });
});
