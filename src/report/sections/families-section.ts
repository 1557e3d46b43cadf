import { percent, percentInterval } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import type { DemoResults } from '../results-schema.js';
import { paragraph, section } from './section.js';

/** Accuracy of every method on each task family (columns in order of first appearance). */
export function familiesSection(families: DemoResults['families']): string {
  if (families.length === 0) return section('families', 'Accuracy per task family', [paragraph('This run recorded no per-family results.', 'note')]);
  const methods = [...new Set(families.flatMap((row) => Object.keys(row.accuracy)))];
  const rows = families.map((row): TableCell[] => [
    row.family,
    String(row.tasks),
    ...methods.map((method): TableCell => {
      const cell = row.accuracy[method];
      if (cell === undefined) return '–';
      return cell.ci === undefined ? percent(cell.accuracy) : { text: percent(cell.accuracy), title: `95% CI ${percentInterval(cell.ci)}` };
    }),
  ]);
  return section('families', 'Accuracy per task family', [
    paragraph('The best plan depends on the task: a method that only learned one good plan for everything shows up here as a gain on one family and none on the other. Hover a cell for its 95% interval where one was measured.'),
    htmlTable({ caption: 'Test accuracy per family and method (bon: Best-of-N strategy at the headline N; grpo: policy after training with that reward)', columns: ['Family', 'Tasks', ...methods], rows }),
  ]);
}
