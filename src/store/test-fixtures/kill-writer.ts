/**
 * Child process of the kill test (store-kill.test.ts): commits complete synthetic episodes in a
 * loop and prints each id once its transaction has committed. Each episode's task metadata
 * records how many nodes and calls it has, so the parent can check nothing was half-written.
 * Usage: node --import tsx kill-writer.ts <db-path> [max-episodes]
 */
import { countEpisodeCalls, createRichEpisode } from '../../testing/episode-factory.js';
import { openStore } from '../open-store.js';

const [path, maxText = '100000'] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: kill-writer.ts <db-path> [max-episodes]');
const store = openStore(path, { keepPrompts: true });
const run = store.createRun({ kind: 'kill-test', config: { pid: process.pid } });
for (let seed = 0; seed < Number(maxText); seed++) {
  const episode = createRichEpisode({ seed, id: `${run.id}-${seed}`, runId: run.id, sampleIndex: seed });
  const expected = { expectedNodeCount: episode.nodes.length, expectedCallCount: countEpisodeCalls(episode) };
  store.insertEpisode({ ...episode, task: { ...episode.task, metadata: { ...episode.task.metadata, ...expected } } });
  process.stdout.write(`${episode.id}\n`);
  // Yield so stdout drains while the parent decides when to kill.
  await new Promise((resolve) => setImmediate(resolve));
}
store.close();
