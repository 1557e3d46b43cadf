import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { EpisodeFilter } from './episode-filter.js';
import type { Store } from './store.js';

/**
 * Writes every matching episode as one JSON object per line (docs/episode-format.md), in
 * insertion order and constant memory. Given a path, it writes `<path>.partial` and renames it
 * when done, so an interrupted export never leaves a file that looks complete. Given a stream,
 * it leaves the stream open (stdout stays usable).
 * @example await exportEpisodesJsonl(store, 'episodes.jsonl', { runId: 'run_1' });
 */
export async function exportEpisodesJsonl(store: Store, output: Writable | string, filter: EpisodeFilter = {}): Promise<{ exported: number }> {
  if (typeof output !== 'string') return { exported: await writeEpisodes(store, output, filter) };
  const partialPath = `${output}.partial`;
  const stream = createWriteStream(partialPath);
  try {
    const exported = await writeEpisodes(store, stream, filter);
    stream.end();
    await once(stream, 'finish');
    await rename(partialPath, output);
    return { exported };
  } catch (error) {
    // Writes still queued fail with ERR_STREAM_DESTROYED: heard here, not as an uncaught error. The
    // file is removed once the stream has closed: removed earlier, a still-pending open recreates it.
    stream.on('error', () => undefined);
    const closed = stream.closed ? Promise.resolve() : new Promise<void>((resolve) => stream.once('close', () => resolve()));
    stream.destroy();
    await closed;
    await rm(partialPath, { force: true });
    throw error;
  }
}

async function writeEpisodes(store: Store, stream: Writable, filter: EpisodeFilter): Promise<number> {
  // A failed stream (a closed pipe, a full disk) never drains: remember its error and stop.
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  stream.on('error', onError);
  try {
    let exported = 0;
    for (const episode of store.iterateEpisodes(filter)) {
      if (failure !== undefined || stream.destroyed) throw failure ?? new Error('the output stream was closed during the export');
      // Respect backpressure so a slow consumer (a pipe) never makes us buffer the whole store.
      if (!stream.write(`${JSON.stringify(episode)}\n`)) await once(stream, 'drain');
      exported += 1;
    }
    if (failure !== undefined) throw failure;
    return exported;
  } finally {
    stream.off('error', onError);
  }
}
