import pLimit from 'p-limit';
import { createBlockRegistry } from '../agents/index.js';
import type { Task } from '../core/index.js';
import { runEpisode } from '../exec/index.js';
import { withConcurrencyLimit } from '../llm/index.js';
import { createFixedReplyProvider } from './zero-latency-provider.js';

const SINGLE_NODE_PLAN = JSON.stringify({ dom: 'low', nodes: [{ id: 'A', agent: 'cot', input: '' }], edges: [], answer: 'A' });

/**
 * Achieved model calls per second against a provider with fixed latency, at a concurrency
 * limit, compared with the ideal `concurrency / latency` a perfect scheduler would reach.
 */
export async function benchCallThroughput(latencyMs = 20, concurrency = 256, calls = 20_480) {
  const blocks = createBlockRegistry();
  const provider = withConcurrencyLimit(createFixedReplyProvider(latencyMs), concurrency);
  const task: Task = { id: 'bench', suite: 'bench', question: 'What is 3 + 4?', metadata: {} };
  const limit = pLimit(concurrency);
  const runAll = (count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, sampleIndex) =>
        limit(() =>
          runEpisode({ task, planText: SINGLE_NODE_PLAN, blocks, provider, seed: sampleIndex, sampleIndex, orchestrator: { name: 'bench' } }),
        ),
      ),
    );
  await runAll(concurrency * 8); // warm-up: JIT and lazy module state
  const startedAt = performance.now();
  await runAll(calls);
  const elapsedS = (performance.now() - startedAt) / 1000;
  const ideal = concurrency / (latencyMs / 1000);
  const achieved = calls / elapsedS;
  return {
    latencyMs,
    concurrency,
    calls,
    achievedCallsPerS: Math.round(achieved),
    idealCallsPerS: Math.round(ideal),
    efficiency: Math.round((achieved / ideal) * 1000) / 1000,
  };
}
