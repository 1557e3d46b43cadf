import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { ownEntry } from '../core/index.js';
import type { PairFilter, Store } from '../store/index.js';
import { layoutPathFor, scoringLayout, type PairExportLayout } from './pair-export-layout.js';
import { EXTENSION_SOURCE_NAMES, OpenRlhfKeysSchema, pairToRow, PUBLISHED_SOURCE_NAMES, type PairExportFormat, type PairRowOptions } from './pair-formats.js';

export interface ExportPairsOptions extends Omit<PairRowOptions, 'margin'> {
  format: PairExportFormat;
  filter?: PairFilter;
  /**
   * `auto`: when any selected pair has a margin, every row carries `margin` (0 for pairs
   * without one), otherwise none does; `omit`: no row does. TRL's collator fails on a file
   * where only some rows have it. The `orchrm` format never has margins. @default 'auto'
   */
  margins?: 'auto' | 'omit';
  /** The tokenizer's EOS token text, recorded in the layout for clients that must append it. @default unrecorded */
  eosToken?: string;
  /**
   * Where to write the layout file; `false` for none. @default `<out>.orchrm-layout` when `out`
   * is a path, none for a stream
   */
  layoutPath?: string | false;
}

export interface ExportPairsResult {
  exported: number;
  /** What was written, and how the target engine lays each row out for a model (written to `layoutPath`). */
  layout: PairExportLayout;
  /** Where the layout went, if anywhere. */
  layoutPath?: string;
}

/**
 * Writes the matching pairs as JSONL in a training engine's layout (see `pairToRow`),
 * streaming from the store with backpressure, and the layout file beside it that remote
 * reward-model clients read back (`createVllmClassifyRewardModel({ layout })`). `out` is a file
 * path or an open stream (left open).
 *
 * @example await exportPairs(store, 'train.jsonl', { format: 'trl', filter: { datasetId, split: 'train' } });
 */
export async function exportPairs(store: Store, out: string | Writable, options: ExportPairsOptions): Promise<ExportPairsResult> {
  const { format, filter, form = 'text', planText = 'raw', margins = 'auto' } = options;
  // One pass to decide the margin column for the whole file, one to write.
  let margin = false;
  if (format !== 'orchrm' && margins === 'auto') {
    for (const pair of store.iteratePairs(filter)) {
      if (pair.margin !== undefined) {
        margin = true;
        break;
      }
    }
  }
  const stream = typeof out === 'string' ? createWriteStream(out, { encoding: 'utf8' }) : out;
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  let exported = 0;
  const sources: Record<string, number> = {};
  const rowOptions: PairRowOptions = { ...options, form, planText, margin };
  for (const pair of store.iteratePairs(filter)) {
    exported += 1;
    const source = format === 'orchrm' ? (ownEntry(PUBLISHED_SOURCE_NAMES, pair.source) ?? ownEntry(EXTENSION_SOURCE_NAMES, pair.source) ?? pair.source) : pair.source;
    sources[source] = (sources[source] ?? 0) + 1;
    if (!stream.write(`${JSON.stringify(pairToRow(pair, format, rowOptions))}\n`)) await Promise.race([once(stream, 'drain'), failed]);
  }
  if (typeof out === 'string') {
    stream.end();
    await Promise.race([once(stream, 'finish'), failed]);
  }
  const keys = options.openRlhfKeys ?? OpenRlhfKeysSchema.parse({});
  const layout: PairExportLayout = {
    kind: 'orchrm-pair-export-layout',
    version: 1,
    format,
    form,
    planText,
    keys:
      format === 'orchrm'
        ? { prompt: 'input', chosen: 'chosen', rejected: 'rejected', margin: null }
        : format === 'trl'
          ? { prompt: 'prompt', chosen: 'chosen', rejected: 'rejected', margin: margin ? 'margin' : null }
          : { prompt: form === 'messages' ? null : keys.prompt, chosen: keys.chosen, rejected: keys.rejected, margin: margin ? 'margin' : null },
    rows: exported,
    sources,
    scoring: scoringLayout(format, form, options.eosToken),
  };
  const layoutPath = options.layoutPath ?? (typeof out === 'string' ? layoutPathFor(out) : false);
  if (layoutPath === false) return { exported, layout };
  await writeFile(layoutPath, `${JSON.stringify(layout, null, 2)}\n`);
  return { exported, layout, layoutPath };
}
