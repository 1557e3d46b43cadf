import { percent, percentInterval, points, pointsInterval } from '../format-values.js';
import { htmlTable, type TableCell } from '../html-table.js';
import type { DemoResults } from '../results-schema.js';
import { sampleSwitchingLine } from '../../select/index.js';
import { paragraph, section } from './section.js';

/** Accuracy of every method on each task family (columns in order of first appearance). */
export function familiesSection(families: DemoResults['families'], templateReferences: Readonly<Record<string, string>> = {}, templateRouter?: DemoResults['bon']['templateRouter']): string {
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
  const comparisons = [...new Set(families.flatMap((row) => Object.keys(row.paired ?? {})))];
  const pairedTable =
    comparisons.length === 0
      ? ''
      : htmlTable({
          caption: 'Paired differences on each family’s test tasks, in points (95% paired bootstrap over tasks); best-fixed is the template best on that family',
          columns: ['Family', 'Best fixed template', ...comparisons.map((name) => name.replace(/-vs-/, ' minus '))],
          rows: families.map((row): TableCell[] => [
            row.family,
            row.bestFixed ?? '–',
            ...comparisons.map((name): TableCell => {
              const difference = row.paired?.[name];
              return difference === undefined ? '–' : { text: `${points(difference.diff)} ${pointsInterval(difference.ci)}`, className: difference.ci[0] > 0 ? 'good' : difference.ci[1] < 0 ? 'bad' : 'muted' };
            }),
          ]),
        });
  return section('families', 'Accuracy per task family', [
    paragraph('The best plan depends on the task: a method that only learned one good plan for everything shows up here as a gain on one family and none on the other. Hover a cell for its 95% interval where one was measured.'),
    htmlTable({ caption: 'Test accuracy per family and method (bon: Best-of-N strategy at the headline N; grpo: policy after training with that reward)', columns: ['Family', 'Tasks', ...methods], rows }),
    pairedTable,
    switchingTable(families),
    referencesParagraph(templateReferences),
    routerParagraph(templateRouter),
  ]);
}

/** Each family's reference template of rm+templates and rm-templates-only (`bon.templateReferences`), when the run recorded them. */
function referencesParagraph(templateReferences: Readonly<Record<string, string>>): string {
  const entries = Object.entries(templateReferences);
  if (entries.length === 0) return '';
  return paragraph(
    `Reference template of rm+templates and rm-templates-only (the template the reward model ranks first on the most of the family’s test tasks; another replaces it only when the model’s bootstrap heads agree it is better): ${entries.map(([family, name]) => `${family} ${name}`).join(', ')}.`,
  );
}

/**
 * How rm+templates and rm-templates-only chose their template when the model's template router did
 * (`bon.templateRouter`), and where rm+templates let a sampled plan replace the router's pick.
 */
function routerParagraph(router: DemoResults['bon']['templateRouter']): string {
  if (router === undefined) return '';
  const switching = router.sampleSwitching === undefined ? '' : ` ${sampleSwitchingLine(router.sampleSwitching).trim()}.`;
  return paragraph(
    `rm+templates and rm-templates-only chose their template by the reward model’s template router: for each of ${router.templates} templates, its success over the task’s suite, word-problem structure and name popularity (${router.facts} facts), with L2 ${router.l2} chosen by log loss on ${router.validationEpisodes.toLocaleString('en-US')} graded template episodes of the validation split after fitting on the train split’s ${router.trainEpisodes.toLocaleString('en-US')}, then fitted on both. No reference template applied.${switching}`,
  );
}

/**
 * Per family and rm strategy: on how many tasks its pick was another kind of plan than the
 * family's best fixed template, and on those tasks how often that won (right where the template,
 * executed on the same task, was wrong) or lost. A router that knows the task wins more than it loses.
 */
function switchingTable(families: DemoResults['families']): string {
  const rows = families.flatMap((row) =>
    (row.switching ?? []).map((entry): TableCell[] => {
      const kinds = Object.entries(entry.kinds)
        .slice(0, 3)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ');
      const verdict = entry.wins > entry.losses ? 'good' : entry.wins < entry.losses ? 'bad' : 'muted';
      return [
        row.family,
        entry.strategy,
        entry.bestFixed,
        `${entry.switched} of ${entry.tasks} (${percent(entry.tasks === 0 ? 0 : entry.switched / entry.tasks)})`,
        { text: String(entry.wins), className: verdict },
        { text: String(entry.losses), className: verdict },
        kinds === '' ? '–' : kinds,
      ];
    }),
  );
  if (rows.length === 0) return '';
  return htmlTable({
    caption: 'Switching: on how many of a family’s test tasks each strategy picked another kind of plan than the family’s best fixed template, and whether that won or lost against the template on the same task',
    columns: ['Family', 'Strategy', 'Best fixed template', 'Switched', 'Won', 'Lost', 'Picked instead'],
    rows,
    numericColumns: [4, 5],
  });
}
