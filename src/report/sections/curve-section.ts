import { percent, percentInterval, tokens } from '../format-values.js';
import { htmlTable } from '../html-table.js';
import type { LearningCurveResult } from '../results-schema.js';
import { paragraph, section } from './section.js';

/** The learning curves: each share's collection tokens and held-out accuracies with intervals. */
export function curveSection(curve: LearningCurveResult): string {
  return section('curve', 'Learning curve', [
    paragraph(
      `The reward model trained on growing shares of the collection’s training tasks (a share holds every smaller one), each point judged on the same ${curve.heldOut.tasks} held-out tasks: ${curve.heldOut.validPairs.toLocaleString('en-US')} valid-vs-valid outcome pairs and Best-of-${curve.n} among their ${curve.heldOut.episodes.toLocaleString('en-US')} executed plans. Collection tokens are those of the share’s episodes; they leave out ${curve.notInPoints}.`,
    ),
    htmlTable({
      caption: 'Held-out accuracy against collection tokens, 95% intervals',
      columns: ['Collection', 'Share', 'Tasks', 'Pairs', 'Collection tokens', 'Valid-vs-valid', '95% CI', `Best-of-${curve.n}`, '95% CI'],
      rows: curve.points.map((point) => [
        point.collection,
        percent(point.share),
        point.tasks.toLocaleString('en-US'),
        point.pairs.toLocaleString('en-US'),
        tokens(point.collectionTokens),
        percent(point.validVsValid.accuracy),
        percentInterval(point.validVsValid.ci),
        percent(point.bestOfN.accuracy),
        percentInterval(point.bestOfN.ci),
      ]),
      numericColumns: [1, 2, 3, 4, 5, 7],
    }),
  ]);
}
