import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineResumableState, resumableStateKey } from './resumable-state.js';

interface CounterState {
  count: number;
  label: string;
}

const states = defineResumableState<CounterState, { format: string; key: string; count: number; label: string }>({
  label: 'counter state',
  format: 'test-counter',
  otherRun: 'by another counter; start over',
  schema: z.object({ format: z.string(), key: z.string(), count: z.number().int(), label: z.string() }),
  encode: (state, header) => JSON.stringify({ ...header, ...state }),
  decode: (bytes) => {
    const value = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    return { format: value.format, key: value.key, body: value, extra: undefined };
  },
  restore: ({ count, label }, _extra, { unusable }) => {
    if (label === '') throw unusable('its label is empty');
    return { count, label };
  },
});

describe('defineResumableState', () => {
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-resumable-'));
  const key = resumableStateKey({ run: 1 });

  it('round-trips a state atomically, and nothing is there before or after', () => {
    const path = join(directory, 'a.json');
    expect(states.load(path, key)).toBeUndefined();
    states.save(path, { count: 3, label: 'x' }, key);
    expect(readdirSync(directory)).toEqual(['a.json']);
    expect(states.load(path, key)).toEqual({ count: 3, label: 'x' });
    states.remove(path);
    states.remove(path);
    expect(states.load(path, key)).toBeUndefined();
  });

  it('refuses a state of another run, of another format, malformed or not even its container', () => {
    const path = join(directory, 'b.json');
    states.save(path, { count: 1, label: 'y' }, key);
    expect(() => states.load(path, resumableStateKey({ run: 2 }))).toThrow(`the counter state ${path} was written by another counter; start over`);
    writeFileSync(path, JSON.stringify({ format: 'other', key, count: 1, label: 'y' }));
    expect(() => states.load(path, key)).toThrow(/is not usable \(its format is other, not test-counter\); delete it to train from scratch/);
    writeFileSync(path, JSON.stringify({ format: 'test-counter', key, count: 'one', label: 'y' }));
    expect(() => states.load(path, key)).toThrow(/is not usable \(its contents are malformed: count: /);
    writeFileSync(path, JSON.stringify({ format: 'test-counter', key, count: 1, label: '' }));
    expect(() => states.load(path, key)).toThrow(/is not usable \(its label is empty\)/);
    writeFileSync(path, '{"format": ');
    expect(() => states.load(path, key)).toThrow(/is not usable \(.*JSON.*\); delete it to train from scratch/);
  });

  it('keys are digests of the parts', () => {
    expect(resumableStateKey([1, 'a'])).toBe(resumableStateKey([1, 'a']));
    expect(resumableStateKey([1, 'a'])).toMatch(/^[0-9a-f]{64}$/);
    expect(resumableStateKey([1, 'a'])).not.toBe(resumableStateKey([1, 'b']));
  });
});
