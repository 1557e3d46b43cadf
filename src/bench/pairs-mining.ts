import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Episode, Rng, type Task } from '../core/index.js';
import { minePairs } from '../pairs/index.js';
import { openStore, type Store } from '../store/index.js';
import { createParseErrorEpisode, createRichEpisode } from '../testing/index.js';

/** Plans per task, as a Best-of-N collection with two checkpoints would store them. */
const EPISODES_PER_TASK = 8;
/** Episodes per write transaction while building the store. */
const BATCH_SIZE = 2_000;

/**
 * Mining speed and memory: builds a temporary store of `episodes` synthetic episodes (8 per
 * task; base and step-500 checkpoints; a quarter of the tasks without a gold answer; about one
 * plan in ten unparsable; the rest seven-node traces with search, cot, sc, reflexion and debate
 * artifacts, a failed and a skipped node), then mines all four sources from it.
 * LLM calls are not stored: mining never reads them. `peakRssMb` is the process's peak resident
 * memory after mining (the build is batched to stay below it); `mineMs` covers reading, scoring,
 * pairing and writing the pairs.
 */
export async function benchPairsMining(episodes = 100_000) {
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-bench-pairs-'));
  const store = openStore(join(directory, 'bench.db'));
  try {
    const buildStartedAt = performance.now();
    fillStore(store, episodes);
    const buildMs = performance.now() - buildStartedAt;
    const setupPeakRssMb = process.resourceUsage().maxRSS / 1024;
    const startedAt = performance.now();
    const cpuBefore = process.cpuUsage();
    const result = minePairs(store, { config: { seed: 1 } });
    const cpu = process.cpuUsage(cpuBefore);
    const mineMs = performance.now() - startedAt;
    return {
      episodes: result.episodes,
      tasks: result.tasks,
      pairs: result.pairs,
      pairsBySource: Object.fromEntries(Object.entries(result.sources).map(([source, report]) => [source, report?.kept ?? 0])),
      buildMs: Math.round(buildMs),
      mineMs: Math.round(mineMs),
      // CPU time of this process while mining: the wall time's floor when other work shares the cores.
      mineCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      setupPeakRssMb: Math.round(setupPeakRssMb),
    };
  } finally {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

function fillStore(store: Store, episodes: number): void {
  const rng = new Rng(42);
  let batch: Episode[] = [];
  for (let index = 0; index < episodes; index++) {
    batch.push(syntheticEpisode(index, rng));
    if (batch.length === BATCH_SIZE || index === episodes - 1) {
      const writing = batch;
      store.transaction(() => writing.forEach((episode) => store.insertEpisode(episode)));
      batch = [];
    }
  }
}

function syntheticEpisode(index: number, rng: Rng): Episode {
  const taskIndex = Math.floor(index / EPISODES_PER_TASK);
  const sampleIndex = index % EPISODES_PER_TASK;
  const labelFree = taskIndex % 4 === 3;
  const task: Task = {
    id: `bench-task-${taskIndex}`,
    suite: 'bench',
    question: `What is ${taskIndex} + ${taskIndex % 97}? Show the steps.`,
    ...(!labelFree && { answer: String(taskIndex + (taskIndex % 97)) }),
    metadata: {},
  };
  const strong = sampleIndex % 2 === 1;
  const options = {
    seed: index,
    id: `bench-ep-${index}`,
    task,
    sampleIndex,
    orchestrator: { name: 'sim', checkpoint: strong ? 'step-500' : 'base', step: strong ? 500 : 0 },
    withMessages: false,
    correct: rng.chance(strong ? 0.7 : 0.45),
  };
  const episode = rng.chance(0.1) ? createParseErrorEpisode(options) : createRichEpisode(options);
  const { orchestratorCall: _call, grade, ...rest } = episode;
  return {
    ...rest,
    // Mining reads no LLM calls, and the executor grades only tasks that have a gold answer.
    nodes: rest.nodes.map((node) => ({ ...node, calls: [] })),
    ...(!labelFree && { grade: grade ?? { correct: false, method: 'no_answer' } }),
  };
}
