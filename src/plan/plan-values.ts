import type { Diagnostic, Dom } from '../core/plan.js';
import { planDiagnostic } from './plan-diagnostic.js';

/** Reads a DoM as written (`low`, `High`, `high DoM`); reports `schema` for anything else. */
export function readDom(value: unknown, path: string, diagnostics: Diagnostic[]): Dom | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const low = text.includes('low');
  const high = text.includes('high');
  if (low !== high) return low ? 'low' : 'high';
  diagnostics.push(planDiagnostic('schema', path, `DoM must be "low" or "high", got ${JSON.stringify(value)}`));
  return undefined;
}

/** A node id as written in an edge or answer: trimmed, `${B}` read as `B`. */
export function readNodeId(text: string): string {
  const trimmed = text.trim();
  return trimmed.startsWith('${') && trimmed.endsWith('}') ? trimmed.slice(2, -1).trim() : trimmed;
}
