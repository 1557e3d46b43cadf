import { z } from 'zod';
import { defineResumableState, removeResumableState, resumableStateKey, type ResumableState } from '../core/index.js';
import type { EvaluationPoint, GrpoStepLog, TrainingTokens } from './grpo-trainer.js';

/** Everything `trainGrpo` needs to continue after `step` as if it had never stopped. */
export interface GrpoResumeState<Checkpoint> {
  /** GRPO steps done. */
  step: number;
  /** The policy after `step`. */
  checkpoint: Checkpoint;
  /** Cumulative training tokens. */
  tokens: TrainingTokens;
  history: GrpoStepLog[];
  evaluations: EvaluationPoint[];
  evaluationTokens: number;
}

/** A resume state of a GRPO run (`runGrpo`), plus the store ids of the checkpoints written so far. */
export interface GrpoRunState<Checkpoint> extends GrpoResumeState<Checkpoint> {
  storedCheckpoints: string[];
}

/** How a run's checkpoints become JSON and back (a trainable orchestrator's `policy.serialize` and `parseCheckpoint`). */
export interface CheckpointCodec<Checkpoint> {
  serialize(checkpoint: Checkpoint): unknown;
  parse(value: unknown, source: string): Checkpoint;
}

const object = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null);
const TokensSchema = z.object({ orchestrator: z.number(), execution: z.number(), verification: z.number(), total: z.number() });
const StateFileSchema = z.object({
  format: z.string(),
  key: z.string(),
  step: z.number().int().min(1),
  checkpoint: z.unknown(),
  tokens: TokensSchema,
  history: z.array(object<GrpoStepLog>()),
  evaluations: z.array(object<EvaluationPoint>()),
  evaluationTokens: z.number(),
  storedCheckpoints: z.array(z.string()),
});

/** Identifies a GRPO run: a digest of everything that decides its steps (config, tasks, reward, start). */
export function grpoRunKey(parts: unknown): string {
  return resumableStateKey(parts);
}

/**
 * The resume-state file of a GRPO run: JSON, the checkpoint as its codec writes it. Written
 * atomically after every step; `load` refuses a state of a run with other flags.
 *
 * @example
 * const states = grpoStateFile({ serialize: policy.serialize, parse: trainable.parseCheckpoint });
 * states.save('grpo.json.grpo-state.json', state, grpoRunKey(parts));
 */
export function grpoStateFile<Checkpoint>(codec: CheckpointCodec<Checkpoint>): ResumableState<GrpoRunState<Checkpoint>> {
  return defineResumableState({
    label: 'GRPO state',
    format: 'orchrm-grpo-state',
    otherRun: 'by a run with other flags (scenario, start checkpoint, reward, steps, seed, ...); resume with the same flags, or run without --resume to start over',
    schema: StateFileSchema,
    encode: (state: GrpoRunState<Checkpoint>, header) => {
      const { checkpoint, ...rest } = state;
      return JSON.stringify({ ...header, ...rest, checkpoint: codec.serialize(checkpoint) });
    },
    decode: (bytes) => {
      const value: unknown = JSON.parse(bytes.toString('utf8'));
      const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      return { format: fields.format, key: fields.key, body: value, extra: undefined };
    },
    restore: ({ format: _format, key: _key, checkpoint, ...rest }, _extra, { path }) => ({ ...rest, checkpoint: codec.parse(checkpoint, path) }),
  });
}

/** Removes a run's resume state once its final checkpoint is written; a missing file is fine. */
export function removeGrpoState(path: string): void {
  removeResumableState(path);
}
