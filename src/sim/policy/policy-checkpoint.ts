import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../../core/index.js';
import { FEATURE_COUNT, FEATURE_NAMES } from './question-features.js';
import { HEAD_NAMES, POLICY_HEADS, headSize, type HeadName } from './policy-heads.js';

/** Version of the checkpoint file format; bumped when heads or features change meaning. */
export const POLICY_CHECKPOINT_SCHEMA_VERSION = 1;

/** Weights of every head: `weights[head][choice * FEATURE_COUNT + feature]` (row per choice). */
export type PolicyWeights = Record<HeadName, Float64Array>;

/** A saved state of the simulated orchestrator's policy. */
export interface PolicyCheckpoint {
  schemaVersion: typeof POLICY_CHECKPOINT_SCHEMA_VERSION;
  /** Served as the model `sim-orchestrator-<name>`; also keys `scenario.orchestrator.malformedRate`. */
  name: string;
  /** Gradient steps taken since the base checkpoint. */
  step: number;
  /** The feature layout the weights were trained for (must equal `FEATURE_NAMES`). */
  featureNames: string[];
  weights: PolicyWeights;
}

/** The JSON file form of a checkpoint (weights as plain number lists). */
export const PolicyCheckpointFileSchema = z.strictObject({
  schemaVersion: z.number().int(),
  name: z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, 'checkpoint names use letters, digits, "_", "." or "-"'),
  step: z.number().int().min(0),
  featureNames: z.array(z.string()),
  weights: z.record(z.string(), z.array(z.number().finite())),
});
export type PolicyCheckpointFile = z.infer<typeof PolicyCheckpointFileSchema>;

/** Zero weights for every head. */
export function zeroWeights(): PolicyWeights {
  return Object.fromEntries(HEAD_NAMES.map((head) => [head, new Float64Array(headSize(head) * FEATURE_COUNT)])) as PolicyWeights;
}

/**
 * The `base` checkpoint: a weak prior standing for an untrained orchestrator. Only bias weights
 * are set (no feature weight, so it does not tell task kinds apart): a mild preference for low
 * DoM (logit +0.4, P = 0.6), for a single `cot` when low (logit +1, P = 0.35 of six), and for
 * `cot` nodes when high (logit +0.5); every other head is uniform. Not tuned to any result.
 */
export function baseCheckpoint(): PolicyCheckpoint {
  const weights = zeroWeights();
  const setBias = (head: HeadName, choice: string, logit: number) => {
    const index = (POLICY_HEADS[head] as readonly string[]).indexOf(choice);
    weights[head][index * FEATURE_COUNT] = logit;
  };
  setBias('dom', 'low', 0.4);
  setBias('block', 'cot', 1.0);
  setBias('nodeBlock', 'cot', 0.5);
  setBias('finalBlock', 'cot', 0.5);
  return { schemaVersion: POLICY_CHECKPOINT_SCHEMA_VERSION, name: 'base', step: 0, featureNames: [...FEATURE_NAMES], weights };
}

/** A copy with its own weight arrays, optionally renamed. */
export function cloneCheckpoint(checkpoint: PolicyCheckpoint, changes: { name?: string; step?: number } = {}): PolicyCheckpoint {
  const weights = Object.fromEntries(HEAD_NAMES.map((head) => [head, Float64Array.from(checkpoint.weights[head])])) as PolicyWeights;
  return { ...checkpoint, featureNames: [...checkpoint.featureNames], weights, ...changes };
}

/** The JSON-serialisable form of a checkpoint. */
export function checkpointToFile(checkpoint: PolicyCheckpoint): PolicyCheckpointFile {
  const weights = Object.fromEntries(HEAD_NAMES.map((head) => [head, Array.from(checkpoint.weights[head])]));
  return { schemaVersion: checkpoint.schemaVersion, name: checkpoint.name, step: checkpoint.step, featureNames: checkpoint.featureNames, weights };
}

/**
 * Validates a parsed checkpoint file: version, feature layout and the shape of every head.
 * Throws `InvalidInputError` naming what is wrong; `source` names the file in messages.
 */
export function checkpointFromFile(value: unknown, source: string): PolicyCheckpoint {
  const parsed = PolicyCheckpointFileSchema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(source, zodIssues(parsed.error), 'write it with saveCheckpoint');
  const file = parsed.data;
  const issues: { path: string; message: string }[] = [];
  if (file.schemaVersion !== POLICY_CHECKPOINT_SCHEMA_VERSION) {
    issues.push({ path: 'schemaVersion', message: `version ${file.schemaVersion} is not supported; this build reads version ${POLICY_CHECKPOINT_SCHEMA_VERSION}` });
  }
  if (file.featureNames.join(',') !== FEATURE_NAMES.join(',')) {
    issues.push({ path: 'featureNames', message: `the feature layout differs from this build's (${FEATURE_COUNT} features: ${FEATURE_NAMES.join(', ')})` });
  }
  for (const head of HEAD_NAMES) {
    const expected = headSize(head) * FEATURE_COUNT;
    const written = file.weights[head];
    if (!written) issues.push({ path: `weights.${head}`, message: 'missing' });
    else if (written.length !== expected) issues.push({ path: `weights.${head}`, message: `has ${written.length} weights, expected ${expected} (${headSize(head)} choices x ${FEATURE_COUNT} features)` });
  }
  for (const head of Object.keys(file.weights)) {
    if (!(head in POLICY_HEADS)) issues.push({ path: `weights.${head}`, message: `unknown head; known heads: ${HEAD_NAMES.join(', ')}` });
  }
  if (issues.length > 0) throw new InvalidInputError(source, issues, 'the checkpoint was written by another version of orchrm; retrain or convert it');
  const weights = Object.fromEntries(HEAD_NAMES.map((head) => [head, Float64Array.from(file.weights[head] ?? [])])) as PolicyWeights;
  return { schemaVersion: POLICY_CHECKPOINT_SCHEMA_VERSION, name: file.name, step: file.step, featureNames: file.featureNames, weights };
}

/** Writes a checkpoint as JSON. */
export async function saveCheckpoint(checkpoint: PolicyCheckpoint, path: string): Promise<void> {
  await writeFile(path, `${JSON.stringify(checkpointToFile(checkpoint))}\n`, 'utf8');
}

/** Reads and validates a checkpoint file; throws `UserError`/`InvalidInputError` with the fix. */
export async function loadCheckpoint(path: string): Promise<PolicyCheckpoint> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read the policy checkpoint ${path} (${(error as Error).message}); check the path`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`the policy checkpoint ${path} is not JSON (${(error as Error).message}); write it with saveCheckpoint`, { cause: error });
  }
  return checkpointFromFile(value, path);
}
