import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { PairFilter, Store } from '../store/index.js';
import { pairToRow, type PairExportFormat, type PairRowOptions } from './pair-formats.js';

/**
 * Writes the matching pairs as JSONL in a training engine's layout (see `pairToRow`), streaming
 * from the store with backpressure. `out` is a file path or an open stream (left open).
 * @example await exportPairs(store, 'train.jsonl', { format: 'trl', filter: { datasetId, split: 'train' } });
 */
export async function exportPairs(
  store: Store,
  out: string | Writable,
  options: PairRowOptions & { format: PairExportFormat; filter?: PairFilter },
): Promise<{ exported: number }> {
  const stream = typeof out === 'string' ? createWriteStream(out, { encoding: 'utf8' }) : out;
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  let exported = 0;
  for (const pair of store.iteratePairs(options.filter)) {
    exported += 1;
    if (!stream.write(`${JSON.stringify(pairToRow(pair, options.format, options))}\n`)) await Promise.race([once(stream, 'drain'), failed]);
  }
  if (typeof out === 'string') {
    stream.end();
    await Promise.race([once(stream, 'finish'), failed]);
  }
  return { exported };
}
