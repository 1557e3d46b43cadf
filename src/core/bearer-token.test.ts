import { describe, expect, it } from 'vitest';
import { bearerTokenChecker, parseBearerToken } from './bearer-token.js';

describe('parseBearerToken', () => {
  it.each([
    ['Bearer s3cret', 's3cret'],
    ['bearer s3cret', 's3cret'],
    ['BEARER \t s3cret \t ', 's3cret'],
    ['Bearer a b', 'a b'],
    ['Bearer', undefined],
    ['Bearer ', undefined],
    ['Bearer    ', undefined],
    ['Bearers3cret', undefined],
    ['Basic czNjcmV0', undefined],
    [' Bearer s3cret', undefined],
    [undefined, undefined],
  ])('%j -> %j', (header, token) => {
    expect(parseBearerToken(header)).toBe(token);
  });
});

describe('bearerTokenChecker', () => {
  it('accepts the token only', () => {
    const isAuthorized = bearerTokenChecker('s3cret');
    expect(isAuthorized('Bearer s3cret')).toBe(true);
    expect(isAuthorized('bearer  s3cret\t')).toBe(true);
    expect(isAuthorized('Bearer s3cre')).toBe(false);
    expect(isAuthorized('Bearer s3crett')).toBe(false);
    expect(isAuthorized(undefined)).toBe(false);
  });

  it('checks a hostile header in linear time (issue 23: the old regex took seconds, before authentication)', () => {
    // `Bearer x`, a run of spaces, `y`: the lazy `(.+?)[ \t]*$` of the old regex rescanned the run
    // from every position, about 0.35 s for 15 KB and growing with the square of the length.
    const isAuthorized = bearerTokenChecker('s3cret');
    const hostile = `Bearer x${' '.repeat(60_000)}y`;
    const startedAt = performance.now();
    expect(isAuthorized(hostile)).toBe(false);
    // Under a millisecond now; the old regex took 7.5 s for this header on the build machine.
    expect(performance.now() - startedAt).toBeLessThan(100);
  });
});
