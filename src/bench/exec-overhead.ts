import { createBlockRegistry } from '../agents/index.js';
import type { Task } from '../core/index.js';
import { runEpisode } from '../exec/index.js';
import { createFixedReplyProvider } from './zero-latency-provider.js';

/** A 5-node plan: two parallel branches from one root, joined, then checked by a final node. */
export const FIVE_NODE_PLAN = JSON.stringify({
  dom: 'high',
  nodes: [
    { id: 'A', agent: 'cot', input: '' },
    { id: 'B', agent: 'cot', input: 'Use ${A} for the first part.' },
    { id: 'C', agent: 'cot', input: 'Use ${A} for the second part.' },
    { id: 'D', agent: 'cot', input: 'Combine ${B} and ${C}.' },
    { id: 'E', agent: 'cot', input: 'Check ${D} and give the final answer.' },
  ],
  edges: [
    { from: 'A', to: 'B' },
    { from: 'A', to: 'C' },
    { from: 'B', to: 'D' },
    { from: 'C', to: 'D' },
    { from: 'D', to: 'E' },
  ],
  answer: 'E',
});

/**
 * Executor overhead: parse, validate and execute `episodes` five-node plans against a provider
 * that answers instantly, one episode after another, so the time is orchrm's own.
 */
export async function benchExecOverhead(episodes = 10_000) {
  const blocks = createBlockRegistry();
  const provider = createFixedReplyProvider(0);
  const task: Task = { id: 'bench', suite: 'bench', question: 'What is 3 + 4?', metadata: {} };
  const run = (sampleIndex: number) =>
    runEpisode({ task, planText: FIVE_NODE_PLAN, blocks, provider, seed: sampleIndex, sampleIndex, orchestrator: { name: 'bench' } });
  for (let i = 0; i < 200; i++) await run(i); // warm-up: JIT and lazy module state
  const startedAt = performance.now();
  let ok = 0;
  for (let i = 0; i < episodes; i++) if ((await run(i)).status === 'ok') ok++;
  const elapsedMs = performance.now() - startedAt;
  return {
    episodes,
    nodesPerEpisode: 5,
    episodesOk: ok,
    totalMs: round(elapsedMs),
    overheadPerEpisodeUs: round((elapsedMs * 1000) / episodes),
    overheadPerNodeUs: round((elapsedMs * 1000) / (episodes * 5)),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
