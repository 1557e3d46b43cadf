import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidInputError, UserError } from '../../core/errors.js';
import { Rng } from '../../core/rng.js';
import { baseCheckpoint, checkpointToFile, cloneCheckpoint, loadCheckpoint, saveCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES } from './policy-heads.js';
import { FEATURE_NAMES } from './question-features.js';

let directory: string;
beforeAll(async () => (directory = await mkdtemp(join(tmpdir(), 'orchrm-policy-'))));
afterAll(async () => rm(directory, { recursive: true, force: true }));

describe('policy checkpoints', () => {
  test('the base checkpoint prefers low DoM and a single cot, and nothing else', () => {
    const base = baseCheckpoint();
    expect(base).toMatchObject({ name: 'base', step: 0, schemaVersion: 1, featureNames: [...FEATURE_NAMES] });
    const nonzero = HEAD_NAMES.flatMap((head) => Array.from(base.weights[head], (value, index) => (value === 0 ? [] : [`${head}[${index}]=${value}`])).flat());
    const featureCount = FEATURE_NAMES.length;
    expect(nonzero).toEqual(['dom[0]=0.4', 'block[16]=1', 'nodeBlock[0]=0.5', 'finalBlock[0]=0.5'].map((entry) => entry.replace('block[16]', `block[${featureCount}]`)));
  });

  test('save and load round-trip every weight exactly', async () => {
    const checkpoint = cloneCheckpoint(baseCheckpoint(), { name: 'trained-1', step: 40 });
    const rng = new Rng(9);
    for (const head of HEAD_NAMES) checkpoint.weights[head].forEach((_, index, weights) => (weights[index] = rng.normal() / 3));
    const path = join(directory, 'trained-1.json');
    await saveCheckpoint(checkpoint, path);
    const loaded = await loadCheckpoint(path);
    expect(loaded.name).toBe('trained-1');
    expect(loaded.step).toBe(40);
    for (const head of HEAD_NAMES) expect(Array.from(loaded.weights[head])).toEqual(Array.from(checkpoint.weights[head]));
  });

  test('refuses a wrong version, a wrong shape, other features and non-JSON with the reason', async () => {
    const write = async (name: string, content: unknown) => {
      const path = join(directory, name);
      await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    };
    const file = checkpointToFile(baseCheckpoint());
    const version = await write('version.json', { ...file, schemaVersion: 2 });
    await expect(loadCheckpoint(version)).rejects.toThrow(/schemaVersion: version 2 is not supported/);
    const shape = await write('shape.json', { ...file, weights: { ...file.weights, block: [1, 2, 3] } });
    await expect(loadCheckpoint(shape)).rejects.toThrow(/weights\.block: has 3 weights, expected/);
    const features = await write('features.json', { ...file, featureNames: ['bias'] });
    await expect(loadCheckpoint(features)).rejects.toThrow(InvalidInputError);
    const extra = await write('extra.json', { ...file, weights: { ...file.weights, planner: [0] } });
    await expect(loadCheckpoint(extra)).rejects.toThrow(/weights\.planner: unknown head/);
    const missing = await write('missing.json', { ...file, weights: { dom: file.weights.dom } });
    await expect(loadCheckpoint(missing)).rejects.toThrow(/weights\.block: missing/);
    await expect(loadCheckpoint(await write('text.json', 'not json'))).rejects.toThrow(/is not JSON/);
    await expect(loadCheckpoint(join(directory, 'absent.json'))).rejects.toThrow(UserError);
    expect(JSON.parse(await readFile(version, 'utf8')).schemaVersion).toBe(2);
  });
});
