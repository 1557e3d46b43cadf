import type { DemoResults } from '../report/index.js';
import type { BonTable } from '../select/index.js';

/** Strategies shown per family: the baseline, the method, the expensive alternatives and the bound. */
const FAMILY_STRATEGIES = ['single', 'rm', 'majority', 'judge', 'oracle'] as const;

/** Per-family accuracy of the Best-of-N strategies at the headline N, from the per-suite tables. */
export function familyRows(bySuite: Record<string, BonTable[]>, headlineN: number): DemoResults['families'] {
  return Object.entries(bySuite).flatMap(([family, tables]) => {
    const table = tables.find((entry) => entry.n === headlineN);
    if (!table) return [];
    const accuracy: DemoResults['families'][number]['accuracy'] = {};
    for (const name of FAMILY_STRATEGIES) {
      const summary = table.strategies[name];
      if (summary) accuracy[`bon:${name}`] = { accuracy: summary.accuracy, ci: summary.ci };
    }
    return [{ family, tasks: table.tasks, accuracy }];
  });
}
