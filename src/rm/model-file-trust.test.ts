import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../core/index.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../sim/server/index.js';
import { createFunctionProvider } from '../testing/index.js';
import { parseEncoderSpec } from './features/encoder-spec.js';
import { createHead, MAX_HEAD_PARAMETERS } from './heads/create-head.js';
import { loadRewardModel, MODEL_FORMAT, MODEL_FORMAT_VERSION, saveRewardModel } from './model-file.js';
import { readSafetensors, writeSafetensors, type SafetensorsTensor } from './safetensors.js';
import { syntheticPairs } from './synthetic-pairs.js';
import { trainRewardModel } from './train-reward-model.js';

/**
 * Issue 23, items 1 and 7: a model file is data someone may hand out. It may not choose where
 * requests go or which key they carry, and nothing it claims is allocated or trusted before it is
 * checked against the file itself.
 */

const directory = mkdtempSync(join(tmpdir(), 'orchrm-model-trust-'));
const file = (name: string) => join(directory, name);
const pairs = syntheticPairs({ pairs: 40, seed: 3 });
const question = pairs[0]!.question;
const plans = [pairs[0]!.winner.planText, pairs[0]!.loser.planText];

/** A model file from tensors and metadata, its integrity hash computed as `saveRewardModel` does. */
export function modelFileBytes(tensors: [string, SafetensorsTensor][], metadata: Record<string, string>): Buffer {
  const base = { format: MODEL_FORMAT, format_version: String(MODEL_FORMAT_VERSION), training_config: '{}', metrics: '{}', ...metadata };
  const unsigned = writeSafetensors(tensors, base);
  const dataOffset = 8 + Number(unsigned.readBigUInt64LE(0));
  return writeSafetensors(tensors, { ...base, tensors_sha256: createHash('sha256').update(unsigned.subarray(dataOffset)).digest('hex') });
}

/** A linear model over `bits:8,structure` whose weight vector is `weights` (256 values). */
const linearModel = (weights: Float64Array, metadata: Record<string, string> = {}) =>
  modelFileBytes(
    [
      ['linear.weight', { dtype: 'F64', shape: [256, 1], data: weights }],
      ['linear.bias', { dtype: 'F64', shape: [1], data: Float64Array.of(0) }],
    ],
    { encoder_spec: JSON.stringify({ hashBits: 8, features: [{ kind: 'structure' }] }), head_config: '{"kind":"linear"}', ...metadata },
  );

/** Bytes this process has read through read(2) so far (Linux), to see how much of a file a load reads. */
function bytesReadByProcess(): number | undefined {
  if (!existsSync('/proc/self/io')) return undefined;
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('a model file never chooses where requests go (item 1)', () => {
  let embeddings: OpenAiCompatibleServer;
  let attacker: Server;
  let attackerUrl: string;
  const attackerRequests: { url: string | undefined; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    embeddings = await startOpenAiCompatibleServer({ provider: createFunctionProvider(() => 'unused'), models: ['unused'] });
    attacker = createServer((request, response) => {
      attackerRequests.push({ url: request.url, authorization: request.headers.authorization });
      response.writeHead(500).end();
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await embeddings.close();
    await new Promise((resolve) => attacker.close(resolve));
  });

  it('refuses a file whose encoder spec names an embedding endpoint, sends nothing, and says how to give one', async () => {
    const { model } = await trainRewardModel(pairs, { encoder: 'embed:sim-embedding/8@plan,structure,bits:10', maxEpochs: 1, tune: false, seed: 1 }, { features: { embeddings: { baseURL: embeddings.url } } });
    const clean = file('embed.safetensors');
    await saveRewardModel(model, clean);
    const expected = await model.score(question, plans);
    model.close();

    // What an older orchrm wrote (or anyone can write): the endpoint inside the file's encoder spec.
    const stored = readSafetensors(readFileSync(clean));
    const spec = JSON.parse(stored.metadata.encoder_spec!) as { features: Record<string, unknown>[] };
    spec.features[0] = { ...spec.features[0], baseURL: attackerUrl };
    const evil = file('evil.safetensors');
    writeFileSync(evil, writeSafetensors([...stored.tensors.entries()], { ...stored.metadata, encoder_spec: JSON.stringify(spec) }));

    const previousKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-users-own-key';
    try {
      for (const options of [{}, { features: { embeddings: { baseURL: embeddings.url } } }]) {
        const refused = await loadRewardModel(evil, options).then(
          async (loaded) => {
            await loaded.score(question, plans).catch(() => undefined);
            loaded.close();
            return undefined;
          },
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(UserError);
        expect((refused as Error).message).toMatch(/features\[0\]\.baseURL.*may not choose where requests go or which key they carry.*--embeddings-url/);
      }
      expect(attackerRequests).toEqual([]);

      // The clean file needs the user's endpoint, and scores as trained once given it.
      await expect(loadRewardModel(clean)).rejects.toThrow(/needs an OpenAI-compatible embeddings endpoint.*--embeddings-url/);
      const loaded = await loadRewardModel(clean, { features: { embeddings: { baseURL: embeddings.url } } });
      expect(await loaded.score(question, plans)).toEqual(expected);
      loaded.close();
    } finally {
      if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previousKey;
    }
  });

  it('refuses an endpoint or key in an encoder spec given by hand, with the flag to use instead', () => {
    for (const key of ['baseURL', 'apiKey', 'endpoint']) {
      expect(() => parseEncoderSpec(JSON.stringify({ features: [{ kind: 'embed', model: 'm', [key]: 'http://127.0.0.1:9/v1' }] }))).toThrow(new RegExp(`features\\[0\\]\\.${key}.*--embeddings-url`));
    }
  });
});

describe('a model file is checked before it is trusted (item 7)', () => {
  it('refuses a head config far larger than the tensors the file holds, before allocating it', async () => {
    // The old loader built the claimed head first: 2^24 x 1024 float32 weights is a RangeError.
    const bytes = linearModel(new Float64Array(256), { encoder_spec: JSON.stringify({ hashBits: 24, features: [{ kind: 'structure' }] }), head_config: JSON.stringify({ kind: 'mlp', hidden: 1024 }) });
    writeFileSync(file('huge-head.safetensors'), bytes);
    const refused = await loadRewardModel(file('huge-head.safetensors')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as Error).message).toMatch(/unexpected tensor "linear\.weight" for a mlp head; the file does not match its config, retrain it/);
  });

  it('refuses to build a head beyond MAX_HEAD_PARAMETERS, in training too, with what to lower', () => {
    expect(() => createHead({ kind: 'mlp', hidden: 1024 }, 2 ** 24, 1)).toThrow(UserError);
    expect(() => createHead({ kind: 'mlp', hidden: 1024 }, 2 ** 24, 1)).toThrow(/more than the 268435456 orchrm allows; lower the hidden width \(1024\)/);
    expect(MAX_HEAD_PARAMETERS).toBe(2 ** 28);
  });

  it('reads the header first: a large file with a bad header or unaccounted data costs its header, not its size', async () => {
    const sizeBytes = 256 * 1024 * 1024;
    const badLength = file('bad-length.safetensors');
    writeFileSync(badLength, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0]));
    truncateSync(badLength, sizeBytes); // sparse: no disk space used
    const trailing = file('trailing-data.safetensors');
    writeFileSync(trailing, linearModel(new Float64Array(256)));
    truncateSync(trailing, sizeBytes);
    for (const [path, message] of [
      [badLength, /header length \d+ does not fit/],
      [trailing, /the data section has \d+ bytes but the tensors cover 2056/],
    ] as const) {
      const before = bytesReadByProcess();
      const refused = await loadRewardModel(path).catch((error: unknown) => error);
      const read = before === undefined ? undefined : bytesReadByProcess()! - before;
      expect(refused).toBeInstanceOf(UserError);
      expect((refused as Error).message).toMatch(message);
      // The old loader read all 256 MiB before looking at the header.
      if (read !== undefined) expect(read).toBeLessThan(1024 * 1024);
    }
  });

  it('refuses NaN and infinite weights at load, naming the tensor', async () => {
    for (const [name, bad] of [['nan', NaN], ['inf', Infinity], ['minus-inf', -Infinity]] as const) {
      const weights = new Float64Array(256).fill(0.25);
      weights[17] = bad;
      writeFileSync(file(`${name}.safetensors`), linearModel(weights));
      const refused = await loadRewardModel(file(`${name}.safetensors`)).catch((error: unknown) => error);
      expect(refused, name).toBeInstanceOf(UserError);
      expect((refused as Error).message).toMatch(new RegExp(`tensor linear\\.weight holds ${String(bad)} at index 17.*retrain it`));
    }
    writeFileSync(file('finite.safetensors'), linearModel(new Float64Array(256).fill(0.25)));
    const model = await loadRewardModel(file('finite.safetensors'));
    expect((await model.score(question, plans)).every(Number.isFinite)).toBe(true);
    model.close();
  });

  it('refuses a model name with control characters, which serve and rm score print', async () => {
    writeFileSync(file('escape-name.safetensors'), linearModel(new Float64Array(256), { name: 'rm\u001b[2J\u001b[31mpwned' }));
    await expect(loadRewardModel(file('escape-name.safetensors'))).rejects.toThrow(/has a name that is not a short printable string/);
  });
});
