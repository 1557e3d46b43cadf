import { join } from 'node:path';
import type { Episode, Task } from '../../../core/index.js';
import { collectEpisodes } from '../../../collect/index.js';
import { minePairs } from '../../../pairs/index.js';
import { saveRewardModel, trainRewardModel } from '../../../rm/index.js';
import { recordBestOfN, runBestOfN } from '../../../select/index.js';
import { createSimEnvironment, loadScenario } from '../../../sim/index.js';
import { openStore } from '../../../store/index.js';
import { createRichEpisode } from '../../../testing/episode-factory.js';
import type { ViewerDocument } from '../viewer-data.js';

/** Text that is markup and script if anything renders it as HTML: it must show as itself. */
export const HOSTILE = `</script><script>window.__pwned = 'script'</script><img src=x onerror="window.__pwned = 'img'"><b>bold</b> & <!-- comment -->`;
export const HOSTILE_TASK_ID = 'hostile-</script>-task';

/** The hostile episode: its question, plan text, node inputs, answers, outputs, errors and search queries all carry HOSTILE. */
function hostileEpisode(): Episode {
  const task: Task = { id: HOSTILE_TASK_ID, suite: 'hostile', question: `What does ${HOSTILE} say?`, answer: `<i>${HOSTILE}</i>`, metadata: { family: `fam ${HOSTILE}`, note: HOSTILE } };
  const rich = createRichEpisode({ seed: 3, id: 'ep-hostile', task, correct: false });
  const nodes = rich.nodes.map((node) => ({
    ...node,
    input: `${node.input} ${HOSTILE}`,
    ...(node.answer !== undefined && { answer: `${node.answer} ${HOSTILE}` }),
    ...(node.output !== undefined && { output: `${node.output} ${HOSTILE}` }),
    ...(node.reason !== undefined && { reason: `${node.reason} ${HOSTILE}` }),
    calls: node.calls.map((call) => ({ ...call, response: `${call.response} ${HOSTILE}`, ...(call.error !== undefined && { error: `${call.error} ${HOSTILE}` }) })),
    ...(node.artifacts?.kind === 'search' && { artifacts: { ...node.artifacts, steps: (node.artifacts.steps as { query: string; docIds: string[] }[]).map((step) => ({ ...step, query: `${step.query} ${HOSTILE}` })) } }),
  }));
  const plan = { ...rich.plan!, nodes: rich.plan!.nodes.map((node) => ({ ...node, input: `${node.input} ${HOSTILE}` })) };
  return { ...rich, plan, nodes, planText: `${JSON.stringify(plan)}\n${HOSTILE}`, finalAnswer: `${rich.finalAnswer} ${HOSTILE}` };
}

export interface ViewerDatabase {
  db: string;
  model: string;
  documents: ViewerDocument[];
}

/**
 * A real database for the viewer's tests: episodes collected by the simulator (arithmetic and
 * multi-hop tasks), pairs mined from them by the real miner, a reward model trained on those
 * pairs, a Best-of-N run with it on two test tasks and one collected task, plus one hostile
 * episode whose every text is markup.
 */
export async function buildViewerDatabase(directory: string): Promise<ViewerDatabase> {
  const environment = await createSimEnvironment(loadScenario('default'));
  const db = join(directory, 'viewer.db');
  const store = openStore(db);
  try {
    await collectEpisodes({ environment, tasks: environment.tasks('train', 12), store, plansPerTask: 4, concurrency: 4, seed: 3, config: { scenario: 'default' } });
    store.insertEpisode(hostileEpisode());
    const { datasetId } = minePairs(store, { config: { seed: 1 } });
    const pairs = [...store.iteratePairs({ datasetId })];
    const { model } = await trainRewardModel(pairs, { seed: 1, maxEpochs: 3 });
    const modelPath = join(directory, 'rm.safetensors');
    await saveRewardModel(model, modelPath);
    // Best-of-N on two held-out tasks (named only by its results) and one collected task.
    const bonTasks = [...environment.tasks('test', 2), environment.tasks('train', 12)[0]!];
    const bon = await runBestOfN({ environment, tasks: bonTasks, rewardModel: model, config: { ns: [1, 4], seed: 2, pool: 'sampled+templates', strategies: ['single', 'rm', 'rm+templates', 'majority', 'oracle'] } });
    recordBestOfN(store, bon, { scenario: 'default', rewardModel: modelPath, pool: 'sampled+templates' });
    return { db, model: modelPath, documents: environment.families.flatMap((family) => [...family.corpus()]) };
  } finally {
    store.close();
  }
}
