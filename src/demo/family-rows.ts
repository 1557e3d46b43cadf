import { switchingRowsOf, type DemoResults } from '../report/index.js';
import type { BonTable, SwitchingSummary } from '../select/index.js';

/** Strategies shown per family: the baselines a sceptic would name, the methods, the expensive alternatives and the bound. */
const FAMILY_STRATEGIES = ['single', 'first-valid', 'rm', 'rm+templates', 'rm-templates-only', 'best-fixed', 'majority', 'judge', 'oracle'] as const;

/** Paired differences kept per family: the gains the issue asks for on every family. */
const FAMILY_COMPARISONS = ['rm-vs-single', 'rm-vs-first-valid', 'rm+templates-vs-best-fixed', 'rm-templates-only-vs-best-fixed', 'rm+templates-vs-single'] as const;

/**
 * Per-family accuracy of the Best-of-N strategies at the headline N, from the per-suite tables,
 * with the paired differences on the family's tasks. Within one family `best-fixed` is the
 * template best on that family: the family's row of `best-fixed-per-family`. With `switching`, each
 * row also says how the rm strategies' picks switch away from that template.
 */
export function familyRows(bySuite: Record<string, BonTable[]>, headlineN: number, switching: readonly SwitchingSummary[] = []): DemoResults['families'] {
  return Object.entries(bySuite).flatMap(([family, tables]) => {
    const table = tables.find((entry) => entry.n === headlineN);
    if (!table) return [];
    const accuracy: DemoResults['families'][number]['accuracy'] = {};
    for (const name of FAMILY_STRATEGIES) {
      const summary = table.strategies[name];
      if (summary) accuracy[`bon:${name}`] = { accuracy: summary.accuracy, ci: summary.ci };
    }
    const paired: NonNullable<DemoResults['families'][number]['paired']> = {};
    for (const key of FAMILY_COMPARISONS) if (table.paired[key]) paired[key] = table.paired[key];
    const switchingRows = switchingRowsOf(switching, family, headlineN);
    return [{ family, tasks: table.tasks, accuracy, paired, ...(table.bestFixed !== undefined && { bestFixed: table.bestFixed.overall }), ...(switchingRows.length > 0 && { switching: switchingRows }) }];
  });
}
