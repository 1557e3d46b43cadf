import { join } from 'node:path';
import type { PairInput } from '../../core/pair.js';
import { openStore, type Store } from '../../store/index.js';

const PLAN_A = '```json\n{"dom": "high", "nodes": [{"id": "A", "agent": "cot", "input": ""}, {"id": "B", "agent": "reflexion", "input": "Check ${A}"}], "edges": [{"from": "A", "to": "B"}], "answer": "B"}\n```\n';
const PLAN_B = '{"dom":"low","nodes":[{"id":"S","agent":"sc","input":"","params":{"samples":3}}],"edges":[],"answer":"S"}';
const PLAN_C = 'I would answer 391 directly.';

/**
 * A store with one dataset of 8 pairs over 4 tasks, two per source (outcome, checkpoint,
 * process, efficiency), where only the process pairs carry a margin, as mining with
 * `process.marginScale` > 0 leaves them. Plans are raw orchestrator text (fenced JSON, compact
 * JSON, prose), so raw and canonical exports differ.
 */
export function exportStore(directory: string): { store: Store; pairs: PairInput[] } {
  const store = openStore(join(directory, 'export.db'));
  const sources = ['outcome', 'checkpoint', 'process', 'efficiency'] as const;
  const pairs: PairInput[] = sources.flatMap((source, sourceIndex) =>
    [0, 1].map((copy) => {
      const taskIndex = (sourceIndex + copy) % 4;
      return {
        id: `pair-${source}-${copy}`,
        datasetId: 'export',
        taskId: `task-${taskIndex}`,
        question: `Task ${taskIndex}: a farmer has ${17 + taskIndex} sheep and buys ${23 * (copy + 1)} more.\nHow many sheep are there?`,
        winner: { planText: copy === 0 ? PLAN_A : PLAN_B },
        loser: { planText: copy === 0 ? PLAN_C : `${PLAN_C}\n\n` },
        source,
        weight: 1,
        ...(source === 'process' && { margin: 0.25 * (copy + 1) }),
        evidence: {},
        split: 'train' as const,
      };
    }),
  );
  store.insertPairs(pairs);
  return { store, pairs };
}
