import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { checkpointFromFile, checkpointToFile, type PolicyCheckpoint } from '../sim/policy/index.js';
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

/** A resume state of the simulated orchestrator, plus the store ids written so far. */
export interface SimGrpoState extends GrpoResumeState<PolicyCheckpoint> {
  storedCheckpoints: string[];
}

const FORMAT = 'orchrm-grpo-state';
const object = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null);
const TokensSchema = z.object({ orchestrator: z.number(), execution: z.number(), verification: z.number(), total: z.number() });
const StateFileSchema = z.object({
  format: z.literal(FORMAT),
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
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Writes the state atomically (temporary file, then rename): a kill leaves the old or the new state. */
export function saveSimGrpoState(path: string, state: SimGrpoState, key: string): void {
  const { checkpoint, ...rest } = state;
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ format: FORMAT, key, ...rest, checkpoint: checkpointToFile(checkpoint) }));
  renameSync(temporary, path);
}

/** Reads a state written by `saveSimGrpoState`; undefined when there is none. Throws a UserError when it belongs to another run. */
export function loadSimGrpoState(path: string, key: string): SimGrpoState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`cannot read the GRPO state ${path} (${(error as Error).message}); delete it to train from scratch`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`the GRPO state ${path} is not JSON (${(error as Error).message}); delete it to train from scratch`, { cause: error });
  }
  const parsed = StateFileSchema.safeParse(value);
  if (!parsed.success) throw new UserError(`the GRPO state ${path} is malformed (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''}); delete it to train from scratch`);
  const { format: _format, key: fileKey, checkpoint, ...rest } = parsed.data;
  if (fileKey !== key) throw new UserError(`the GRPO state ${path} was written by a run with other flags (scenario, start checkpoint, reward, steps, seed, ...); resume with the same flags, or run without --resume to start over`);
  return { ...rest, checkpoint: checkpointFromFile(checkpoint, path) };
}

/** Removes a state once the run's final checkpoint is written; missing files are fine. */
export function removeSimGrpoState(path: string): void {
  rmSync(path, { force: true });
}
