import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import type { AdamState } from './adam.js';
import type { BtConfig } from './bt-config.js';
import type { EpochLog } from './bt-trainer.js';
import type { ParameterArray } from './heads/reward-head.js';
import { readSafetensors, writeSafetensors, type SafetensorsTensor } from './safetensors.js';

/** Everything `trainBradleyTerry` needs to continue after `epoch` exactly as if never stopped. */
export interface BtTrainingState {
  /** Epochs done (1-based count). */
  epoch: number;
  steps: number;
  learningRate: number;
  /** Lowest validation loss so far (Infinity before any). */
  bestLoss: number;
  bestEpoch: number;
  epochsWithoutImprovement: number;
  stoppedEarly: boolean;
  history: EpochLog[];
  /** The head's tensor values, in `head.tensors` order. */
  values: ParameterArray[];
  /** Values of the best validation epoch, when one was kept. */
  bestValues?: ParameterArray[];
  adam: AdamState;
}

const FORMAT = 'orchrm-bt-training-state';

const ScalarsSchema = z.object({
  epoch: z.number().int().min(1),
  steps: z.number().int().min(0),
  learningRate: z.number(),
  bestLoss: z.number().nullable(),
  bestEpoch: z.number().int().min(0),
  epochsWithoutImprovement: z.number().int().min(0),
  stoppedEarly: z.boolean(),
  history: z.array(z.custom<EpochLog>((value) => typeof value === 'object' && value !== null)),
  adamStep: z.number().int().min(0),
  tensorCount: z.number().int().min(1),
  hasBest: z.boolean(),
});

/** Identifies the run a training state belongs to: the encoded data and the whole config. */
export function btTrainingKey(dataHash: string, config: BtConfig): string {
  return createHash('sha256').update(JSON.stringify([dataHash, config])).digest('hex');
}

const tensor = (data: ParameterArray): SafetensorsTensor => ({ dtype: data instanceof Float32Array ? 'F32' : 'F64', shape: [data.length], data });

/** Writes a training state atomically (temporary file, then rename), so a kill leaves the old or the new state. */
export function saveBtTrainingState(path: string, state: BtTrainingState, key: string): void {
  const { values, bestValues, adam, bestLoss, ...scalars } = state;
  const tensors: [string, SafetensorsTensor][] = [];
  values.forEach((data, index) => {
    tensors.push([`values.${index}`, tensor(data)], [`adam.first.${index}`, tensor(adam.first[index]!)], [`adam.second.${index}`, tensor(adam.second[index]!)]);
    if (bestValues) tensors.push([`best.${index}`, tensor(bestValues[index]!)]);
  });
  const metadata = { format: FORMAT, key, state: JSON.stringify({ ...scalars, bestLoss: Number.isFinite(bestLoss) ? bestLoss : null, adamStep: adam.step, tensorCount: values.length, hasBest: bestValues !== undefined }) };
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, writeSafetensors(tensors, metadata));
  renameSync(temporary, path);
}

/**
 * Reads a training state written by `saveBtTrainingState`; undefined when the file does not
 * exist. Throws a UserError when it belongs to other data or another config.
 */
export function loadBtTrainingState(path: string, key: string): BtTrainingState | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`cannot read the training checkpoint ${path} (${(error as Error).message}); delete it to train from scratch`, { cause: error });
  }
  const invalid = (why: string) => new UserError(`the training checkpoint ${path} is not usable (${why}); delete it to train from scratch`);
  let file;
  try {
    file = readSafetensors(bytes);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  if (file.metadata.format !== FORMAT) throw invalid(`its format is ${file.metadata.format ?? 'missing'}, not ${FORMAT}`);
  if (file.metadata.key !== key) throw new UserError(`the training checkpoint ${path} was written for other pairs or another config (seed, epochs, encoder, head); run without --resume to start over, or resume with the same flags and dataset`);
  const parsed = ScalarsSchema.safeParse(JSON.parse(file.metadata.state ?? 'null'));
  if (!parsed.success) throw invalid(`its state metadata is malformed: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  const { adamStep, tensorCount, hasBest, bestLoss, ...scalars } = parsed.data;
  const read = (name: string, index: number): ParameterArray => {
    const found = file.tensors.get(`${name}.${index}`);
    if (!found) throw invalid(`tensor ${name}.${index} is missing`);
    return found.data;
  };
  const indices = Array.from({ length: tensorCount }, (_, index) => index);
  return {
    ...scalars,
    bestLoss: bestLoss ?? Infinity,
    values: indices.map((index) => read('values', index)),
    ...(hasBest && { bestValues: indices.map((index) => read('best', index)) }),
    adam: { step: adamStep, first: indices.map((index) => read('adam.first', index)), second: indices.map((index) => read('adam.second', index)) },
  };
}

/** Removes a training state once its model is written; missing files are fine. */
export function removeBtTrainingState(path: string): void {
  rmSync(path, { force: true });
}
