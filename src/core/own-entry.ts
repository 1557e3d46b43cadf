/**
 * `table[key]` for a key that comes from outside (plan text, a flag, a file), read only from the
 * table's own entries: a plain object also answers `constructor`, `toString` and `__proto__`
 * from its prototype, which would turn a model's `&constructor;` into a function.
 *
 * @example
 * ownEntry({ lt: '<' }, 'constructor') // undefined
 */
export function ownEntry<Value>(table: Readonly<Record<string, Value>>, key: string): Value | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
