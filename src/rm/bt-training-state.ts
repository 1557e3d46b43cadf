import { z } from 'zod';
import { defineResumableState, resumableStateKey } from '../core/index.js';
import type { AdamState } from './adam.js';
import type { BtConfig } from './bt-config.js';
import type { EpochLog } from './bt-trainer.js';
import type { ParameterArray } from './heads/reward-head.js';
import { readSafetensors, writeSafetensors, type SafetensorsFile, type SafetensorsTensor } from './safetensors.js';

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
  return resumableStateKey([dataHash, config]);
}

const tensor = (data: ParameterArray): SafetensorsTensor => ({ dtype: data instanceof Float32Array ? 'F32' : 'F64', shape: [data.length], data });

/** A safetensors file: the head's and Adam's tensors, the scalars as JSON in the metadata. */
const btTrainingStates = defineResumableState<BtTrainingState, z.infer<typeof ScalarsSchema>, SafetensorsFile>({
  label: 'training resume state',
  format: FORMAT,
  otherRun: 'for other pairs or another config (seed, epochs, encoder, head); run without --resume to start over, or resume with the same flags and dataset',
  schema: ScalarsSchema,
  encode(state, header) {
    const { values, bestValues, adam, bestLoss, ...scalars } = state;
    const tensors: [string, SafetensorsTensor][] = [];
    values.forEach((data, index) => {
      tensors.push([`values.${index}`, tensor(data)], [`adam.first.${index}`, tensor(adam.first[index]!)], [`adam.second.${index}`, tensor(adam.second[index]!)]);
      if (bestValues) tensors.push([`best.${index}`, tensor(bestValues[index]!)]);
    });
    const metadata = { ...header, state: JSON.stringify({ ...scalars, bestLoss: Number.isFinite(bestLoss) ? bestLoss : null, adamStep: adam.step, tensorCount: values.length, hasBest: bestValues !== undefined }) };
    return writeSafetensors(tensors, metadata);
  },
  decode(bytes) {
    const file = readSafetensors(bytes);
    return { format: file.metadata.format, key: file.metadata.key, body: JSON.parse(file.metadata.state ?? 'null'), extra: file };
  },
  restore(body, file, { unusable }) {
    const { adamStep, tensorCount, hasBest, bestLoss, ...scalars } = body;
    const read = (name: string, index: number): ParameterArray => {
      const found = file.tensors.get(`${name}.${index}`);
      if (!found) throw unusable(`tensor ${name}.${index} is missing`);
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
  },
});

/** Writes a training state atomically (temporary file, then rename), so a kill leaves the old or the new state. */
export function saveBtTrainingState(path: string, state: BtTrainingState, key: string): void {
  btTrainingStates.save(path, state, key);
}

/**
 * Reads a training state written by `saveBtTrainingState`; undefined when the file does not
 * exist. Throws a UserError when it belongs to other data or another config.
 */
export function loadBtTrainingState(path: string, key: string): BtTrainingState | undefined {
  return btTrainingStates.load(path, key);
}

/** Removes a training state once its model is written; missing files are fine. */
export function removeBtTrainingState(path: string): void {
  btTrainingStates.remove(path);
}
