import { describe, expect, it } from 'vitest';
import { ownEntry } from './own-entry.js';

describe('ownEntry', () => {
  const table: Readonly<Record<string, string>> = { lt: '<', gt: '>' };

  it('reads the entries the table holds', () => {
    expect(ownEntry(table, 'lt')).toBe('<');
  });

  it('finds nothing for names the prototype answers', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) expect(ownEntry(table, key)).toBeUndefined();
  });
});
