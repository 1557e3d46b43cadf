import { basename } from 'node:path';
import { z } from 'zod';
import type { RunRecord, Store } from '../store/index.js';

/** One world a model's pairs came from: a simulated scenario, a benchmark task file, or an import. */
export const TrainingWorldSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scenario'), scenario: z.string() }),
  z.object({ kind: z.literal('task-file'), suite: z.string(), file: z.string() }),
  z.object({ kind: z.literal('imported'), file: z.string() }),
]);
export type TrainingWorld = z.infer<typeof TrainingWorldSchema>;

/** What a model file records about its training data (`trained_on` metadata). */
export const TrainingSourceSchema = z.object({
  /** The pair dataset it was trained on. */
  datasetId: z.string(),
  /** Where that dataset's episodes (or imported pairs) came from; empty when the store did not say. */
  worlds: z.array(TrainingWorldSchema),
});
export type TrainingSource = z.infer<typeof TrainingSourceSchema>;

/**
 * Where a pair dataset came from: the scenarios and task files of the collection runs its pairs'
 * episodes belong to, or the file its pairs were imported from.
 *
 * @example
 * trainingSource(store, 'ds_3f2a') // { datasetId: 'ds_3f2a', worlds: [{ kind: 'scenario', scenario: 'default' }] }
 */
export function trainingSource(store: Store, datasetId: string): TrainingSource {
  const worlds = new Map<string, TrainingWorld>();
  const add = (world: TrainingWorld) => worlds.set(JSON.stringify(world), world);
  const dataset = store.listPairDatasets().find((record) => record.id === datasetId);
  if (dataset?.kind === 'imported' && typeof dataset.config.file === 'string') add({ kind: 'imported', file: basename(dataset.config.file) });
  for (const run of store.runsOfPairDataset(datasetId)) {
    const world = worldOfRun(run);
    if (world !== undefined) add(world);
  }
  return { datasetId, worlds: [...worlds.values()] };
}

/** The world a collection run drew its tasks from, read from its recorded configuration. */
export function worldOfRun(run: Pick<RunRecord, 'config'>): TrainingWorld | undefined {
  const { config } = run;
  const scenario = config.scenario;
  if (typeof scenario === 'string') return { kind: 'scenario', scenario };
  if (typeof scenario === 'object' && scenario !== null && typeof (scenario as { name?: unknown }).name === 'string') {
    return { kind: 'scenario', scenario: (scenario as { name: string }).name };
  }
  if (typeof config.tasksFile === 'string') return { kind: 'task-file', suite: typeof config.suite === 'string' ? config.suite : 'jsonl', file: basename(config.tasksFile) };
  return undefined;
}

/** `scenario default`, `gsm8k tasks from gsm8k-test.jsonl`, `pairs imported from pairs.jsonl`. */
export function describeWorld(world: TrainingWorld): string {
  if (world.kind === 'scenario') return `scenario ${world.scenario}`;
  if (world.kind === 'task-file') return `${world.suite} tasks from ${world.file}`;
  return `pairs imported from ${world.file}`;
}

/**
 * Why a model may not fit a run, or undefined when it does: it was trained on another scenario
 * or another task suite (task files of one suite, e.g. its train and test files, match), or it
 * does not record what it was trained on. Imported pairs match any world.
 */
export function trainingMismatch(modelPath: string, source: TrainingSource | undefined, world: TrainingWorld | undefined): string | undefined {
  if (world === undefined) return undefined;
  if (source === undefined) return `${modelPath} does not record what it was trained on (written by an older orchrm), so it cannot be checked against ${describeWorld(world)}; retrain it to record that`;
  if (source.worlds.length === 0 || source.worlds.some((trained) => trained.kind === 'imported')) return undefined;
  const fits = source.worlds.some((trained) =>
    trained.kind === 'scenario' ? world.kind === 'scenario' && trained.scenario === world.scenario : trained.kind === 'task-file' && world.kind === 'task-file' && trained.suite === world.suite,
  );
  if (fits) return undefined;
  return `${modelPath} was trained on ${source.worlds.map(describeWorld).join(', ')} (pair dataset ${source.datasetId}), but this run uses ${describeWorld(world)}; its scores may not carry over to these tasks`;
}
