import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBlockCatalog } from '../../plan/index.js';
import { hashedEmbedding, startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../../sim/server/index.js';
import { createFunctionProvider } from '../../testing/index.js';
import { parseEncoderSpec } from './encoder-spec.js';
import { EmbeddingSource } from './embedding-source.js';
import { FeaturePipeline } from './feature-pipeline.js';
import { analyzePlan } from './plan-analysis.js';

let server: OpenAiCompatibleServer;
const directory = mkdtempSync(join(tmpdir(), 'orchrm-embeddings-'));

beforeAll(async () => {
  const provider = createFunctionProvider(() => {
    throw new Error('no chat expected');
  });
  server = await startOpenAiCompatibleServer({ provider, models: ['unused'] });
});
afterAll(() => server.close());

describe('EmbeddingSource', () => {
  it('fetches vectors from /v1/embeddings and serves repeats from the SQLite cache', async () => {
    const cachePath = join(directory, 'cache.sqlite');
    const source = new EmbeddingSource({ baseURL: server.url, model: 'sim-embedding', dimensions: 16, cachePath });
    await source.prepare(['apples and pears', 'apples and pears', 'a river']);
    expect(Array.from(source.vector('apples and pears')!)).toEqual(Array.from(hashedEmbedding('apples and pears', 16)));
    const requestsAfterFirst = server.stats.requests.embeddings;
    expect(requestsAfterFirst).toBe(1);
    source.close();
    const again = new EmbeddingSource({ baseURL: server.url, model: 'sim-embedding', dimensions: 16, cachePath });
    await again.prepare(['a river', 'apples and pears']);
    expect(server.stats.requests.embeddings).toBe(requestsAfterFirst);
    expect(again.vector('a river')).toEqual(hashedEmbedding('a river', 16));
    again.release();
    expect(again.vector('a river')).toBeUndefined();
    again.close();
  });

  it('appends task and plan embeddings at fixed offsets after the hashed space', async () => {
    const pipeline = new FeaturePipeline(parseEncoderSpec('structure,embed:sim-embedding/8,bits:10'), { embeddings: { baseURL: server.url } });
    expect(pipeline.dimension).toBe(1024 + 16);
    const plan = analyzePlan('{"dom":"low","nodes":[{"id":"A","agent":"cot","input":""}]}', defaultBlockCatalog());
    await pipeline.prepare(['How many?'], [plan]);
    const count = pipeline.encode(pipeline.analyzeTask('How many?'), plan);
    const indices = Array.from(pipeline.indices.subarray(0, count));
    const values = Array.from(pipeline.values.subarray(0, count));
    const dense = (offset: number) => Array.from({ length: 8 }, (_, index) => values[indices.indexOf(offset + index)] ?? 0);
    expect(dense(1024)).toEqual(Array.from(hashedEmbedding('How many?', 8)));
    expect(dense(1032)).toEqual(Array.from(hashedEmbedding(plan.text, 8)));
    pipeline.close();
  });

  it('refuses an embedding spec without an endpoint, and a wrong width', async () => {
    expect(() => new FeaturePipeline(parseEncoderSpec('embed:sim-embedding/8'))).toThrow(/needs an OpenAI-compatible embeddings endpoint .*--embeddings-url/);
    const source = new EmbeddingSource({ baseURL: server.url, model: 'sim-embedding', dimensions: 5000 });
    await expect(source.prepare(['x'])).rejects.toThrow(/was refused \(400/);
    source.close();
  });
});
