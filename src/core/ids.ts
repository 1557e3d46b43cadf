import { randomUUID } from 'node:crypto';
import { sha256 } from './hash.js';

/** Random id for things with no natural identity (runs). */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** Deterministic id from parts, so re-running the same seed gives the same episode ids. */
export function stableId(prefix: string, ...parts: readonly (string | number)[]): string {
  return `${prefix}_${sha256(parts.join('\u0000')).slice(0, 16)}`;
}
