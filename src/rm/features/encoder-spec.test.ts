import { describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import { formatEncoderSpec, parseEncoderSpec, planOnlySpec } from './encoder-spec.js';

describe('parseEncoderSpec', () => {
  it('reads the string grammar with defaults', () => {
    expect(parseEncoderSpec('words:1-2,chars:3-5@plan,structure,task-stats,cross,embed:BAAI/bge-small/384@task,bits:20')).toEqual({
      hashBits: 20,
      features: [
        { kind: 'words', min: 1, max: 2, of: 'both' },
        { kind: 'chars', min: 3, max: 5, of: 'plan' },
        { kind: 'structure' },
        { kind: 'task-stats' },
        { kind: 'cross' },
        { kind: 'embed', model: 'BAAI/bge-small', dimensions: 384, of: 'task' },
      ],
    });
    expect(parseEncoderSpec('words, chars:4')).toEqual({ hashBits: 18, features: [{ kind: 'words', min: 1, max: 2, of: 'both' }, { kind: 'chars', min: 4, max: 4, of: 'both' }] });
  });

  it('reads JSON objects and round-trips through formatEncoderSpec', () => {
    const spec = parseEncoderSpec('{"features":[{"kind":"words","max":3},{"kind":"length"}]}');
    expect(spec).toEqual({ hashBits: 18, features: [{ kind: 'words', min: 1, max: 3, of: 'both' }, { kind: 'length' }] });
    expect(formatEncoderSpec(spec)).toBe('words:1-3@both,length,bits:18');
    expect(parseEncoderSpec(formatEncoderSpec(spec))).toEqual(spec);
  });

  it('names the bad item and shows the grammar', () => {
    expect(() => parseEncoderSpec('words:1-2,ngrams')).toThrow(/unknown encoder item "ngrams"; the encoder spec grammar is:\n[^]*words\[:N\[-M\]\]/);
    expect(() => parseEncoderSpec('words:3-1')).toThrow(UserError);
    expect(() => parseEncoderSpec('words:1-2,bits:30')).toThrow(/hashBits/);
    expect(() => parseEncoderSpec('structure:2')).toThrow('encoder item "structure:2": structure takes no arguments');
    expect(() => parseEncoderSpec('')).toThrow(/name at least one feature encoder/);
    expect(() => parseEncoderSpec('{"features": [')).toThrow(/encoder spec JSON does not parse/);
  });

  it('planOnlySpec drops every task-dependent feature', () => {
    expect(formatEncoderSpec(planOnlySpec(parseEncoderSpec('words:1-2,chars:3@task,structure,task-stats,cross')))).toBe('words:1-2@plan,structure,bits:18');
    expect(() => planOnlySpec(parseEncoderSpec('task-stats,cross'))).toThrow(/has no plan features/);
  });
});
