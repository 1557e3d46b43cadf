import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Rng } from '../../core/rng.js';
import { minePairs } from '../../pairs/index.js';
import { formatPlanXml } from '../../plan/index.js';
import { syntheticPlan, syntheticTask, syntheticUtility } from '../../rm/synthetic-pairs.js';
import { openStore } from '../../store/index.js';
import { listModels } from '../../store/model-store.js';
import { createRichEpisode } from '../../testing/episode-factory.js';
import { readSafetensors } from '../../rm/safetensors.js';
import { startOpenAiCompatibleServer } from '../../sim/server/index.js';
import { createFunctionProvider } from '../../testing/index.js';
import { readPlansFile, registerRmCommand } from './rm.js';

let directory: string;
let db: string;

/**
 * A store of graded episodes from the synthetic world (a plan is correct when it holds the block
 * that helps its kind of task), with outcome pairs mined from them by the real miner.
 */
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-rm-cli-'));
  db = join(directory, 'orchrm.db');
  const store = openStore(db);
  const rng = new Rng(11);
  for (let index = 0; index < 60; index++) {
    const synthetic = syntheticTask(rng, index, 20);
    const task = { id: synthetic.id, suite: synthetic.kind, question: synthetic.question, answer: '1', metadata: {} };
    for (let sample = 0; sample < 8; sample++) {
      const blocks = [rng.pick(['cot', 'reflexion', 'sc', 'search']), rng.pick(['sc', 'search'])];
      const correct = syntheticUtility(synthetic.kind, blocks) > 0;
      const episode = createRichEpisode({ seed: index * 10 + sample + 1, id: `ep-${index}-${sample}`, task, sampleIndex: sample, correct, withMessages: false });
      store.insertEpisode({ ...episode, planText: formatPlanXml(syntheticPlan(rng, blocks, 6)) });
    }
  }
  minePairs(store, { config: { sources: ['outcome'], seed: 2, splits: { train: 0.6, validation: 0.2, test: 0.2 } }, datasetId: 'synthetic-outcome' });
  store.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  const program = new Command('orchrm').exitOverride();
  registerRmCommand(program, { stdout, stderr });
  await program.parseAsync(args, { from: 'user' });
  return text;
}

describe('orchrm rm', () => {
  it('trains, registers, evaluates against the three baselines and scores', { timeout: 180_000 }, async () => {
    const linear = join(directory, 'linear.safetensors');
    const train = await run(['rm', 'train', '--db', db, '--encoder', 'words:1@plan,structure,task-stats,cross,bits:14', '--head', 'linear', '--out', linear, '--seed', '1', '--epochs', '6', '--json']);
    expect(process.exitCode).toBeUndefined();
    const summary = JSON.parse(train.stdout) as { id: string; path: string; datasetId: string; trainPairs: number; validationPairs: number };
    expect(summary).toMatchObject({ path: linear, datasetId: 'synthetic-outcome' });
    expect(summary.trainPairs).toBeGreaterThan(0);
    expect(summary.validationPairs).toBeGreaterThan(0);
    expect(train.stderr).toMatch(/training a linear reward model on \d+ pairs of dataset synthetic-outcome\nepoch 1: train loss/);

    const store = openStore(db, { readonly: true });
    expect(listModels(store).map((model) => [model.id, model.kind, (model.metadata.metrics as { datasetId?: string }).datasetId])).toStrictEqual([[summary.id, 'bt-linear', 'synthetic-outcome']]);
    store.close();

    const evaluation = await run(['rm', 'eval', '--model', linear, '--db', db, '--subsets', '20', '--json']);
    expect(process.exitCode).toBeUndefined();
    const report = JSON.parse(evaluation.stdout) as {
      datasetId: string;
      data: { pairs: number; episodes: number };
      models: { evaluation: { pairs: { accuracy: { perSource: Record<string, { ci: { low: number; high: number } }> } }; episodes: { bestOfN: { n: number }[]; auc: number | null } }; comparisons: { baseline: string; verdict: string }[] }[];
      baselines: { kind: string; evaluation: { pairs: { calibration: { ece: number } } } }[];
    };
    expect(report.datasetId).toBe('synthetic-outcome');
    expect(report.data.pairs).toBeGreaterThan(0);
    expect(report.data.episodes).toBeGreaterThan(0);
    const [model] = report.models;
    expect(Object.keys(model?.evaluation.pairs.accuracy.perSource ?? {})).toStrictEqual(['outcome']);
    expect(model?.evaluation.episodes.bestOfN.map((result) => result.n)).toStrictEqual([2, 4, 8]);
    expect(model?.evaluation.episodes.auc).not.toBeNull();
    expect(model?.comparisons.map((comparison) => comparison.baseline)).toStrictEqual(['structure-only', 'plan-only', 'length-only']);
    expect(report.baselines.map((baseline) => baseline.kind)).toStrictEqual(['structure-only', 'plan-only', 'length-only']);
    expect(evaluation.stderr).toContain('plan-only baseline epoch 1');

    const table = await run(['rm', 'eval', '--model', linear, '--db', db, '--subsets', '20']);
    expect(table.stdout).toMatch(/^dataset synthetic-outcome\nheld-out \(test-split tasks only\): \d+ pairs/);
    expect(table.stdout).toMatch(/pairwise accuracy \(n=\d+\) +\d+\.\d% \[/);
    expect(table.stdout).toMatch(/Best-of-8 \(\d+ tasks\)/);
    expect(table.stdout).toMatch(/held-out outcome pairs\n {2}valid vs valid \(n=\d+\) +\d+\.\d% \[/);
    expect(table.stdout).toMatch(/orchrm-bt-linear:\n {2}- (beats|does NOT beat) the structure-only .*\n {2}- (beats|does NOT beat) the plan-only/);

    const rng = new Rng(5);
    const planTexts = [formatPlanXml(syntheticPlan(rng, ['sc', 'cot'], 4)), formatPlanXml(syntheticPlan(rng, ['search', 'cot'], 4)), 'not a plan'];
    const plansFile = join(directory, 'plans.txt');
    writeFileSync(plansFile, planTexts.join('\n---\n'));
    const taskFile = join(directory, 'task.txt');
    writeFileSync(taskFile, 'Farah sold 40 apples and 12 more. How many apples are left after 7 are sold?\n');
    const scored = await run(['rm', 'score', '--model', linear, '--task', `@${taskFile}`, '--plans', plansFile, '--json']);
    const { model: name, scores } = JSON.parse(scored.stdout) as { model: string; scores: number[] };
    expect(name).toBe('orchrm-bt-linear');
    expect(scores).toHaveLength(3);
    const jsonl = join(directory, 'plans.jsonl');
    writeFileSync(jsonl, planTexts.map((text) => JSON.stringify(text)).join('\n'));
    const again = await run(['rm', 'score', '--model', linear, '--task', readFileSync(taskFile, 'utf8').trim(), '--plans', jsonl]);
    expect(again.stdout.trim().split('\n')).toHaveLength(3);
    expect(again.stdout).toContain(`${scores[2]?.toFixed(6)}  plan 3: not a plan`);

    // rm explain: the same score, taken apart; contributions and the bias sum to it.
    const planFile = join(directory, 'plan-1.txt');
    writeFileSync(planFile, planTexts[0]!);
    const explained = JSON.parse((await run(['rm', 'explain', '--model', linear, '--task', `@${taskFile}`, '--plan', `@${planFile}`, '--json'])).stdout) as {
      score: number;
      baseline: number;
      method: string;
      contributions: { encoder: string; feature: string; contribution: number }[];
    };
    expect(explained.method).toBe('exact');
    expect(explained.score).toBeCloseTo(scores[0]!, 12);
    expect(explained.baseline + explained.contributions.reduce((sum, entry) => sum + entry.contribution, 0)).toBeCloseTo(scores[0]!, 9);
    // Task-only features (task-stats) cancel in every pair, so Bradley-Terry training leaves their weights at zero and they contribute nothing.
    expect(new Set(explained.contributions.map((entry) => entry.encoder))).toEqual(new Set(['words:1-1@plan', 'structure', 'cross']));
    const text = await run(['rm', 'explain', '--model', linear, '--task', `@${taskFile}`, '--plan', `@${planFile}`, '--top', '3']);
    expect(text.stdout).toMatch(/^model orchrm-bt-linear \(linear head: exact.*\)\nscore -?\d+\.\d{6} = bias -?\d+\.\d{6} [+-]\d+\.\d{6} from \d+ features\nby encoder: .*\nlargest contributions:\n( +[+-]\d+\.\d{4} {2}\S+ {2}.*\n){3} +[+-]\d+\.\d{4} {2}\(\d+ other features\)\n$/);
    const stored = openStore(db, { readonly: true });
    const [first, second] = stored.listEpisodes({ limit: 2 });
    stored.close();
    const compared = JSON.parse((await run(['rm', 'explain', '--model', linear, '--db', db, '--plan', first!.id, '--against', second!.id, '--json'])).stdout) as {
      plan: { score: number };
      against: { score: number };
      comparison: { scoreDifference: number; differences: { difference: number }[] };
    };
    expect(compared.comparison.scoreDifference).toBeCloseTo(compared.plan.score - compared.against.score, 12);
    expect(compared.comparison.differences.reduce((sum, entry) => sum + entry.difference, 0)).toBeCloseTo(compared.comparison.scoreDifference, 9);
    const comparedText = await run(['rm', 'explain', '--model', linear, '--db', db, '--plan', first!.id, '--against', second!.id]);
    expect(comparedText.stdout).toMatch(/\nplan score -?\d+\.\d{6}, against -?\d+\.\d{6}: difference [+-]\d+\.\d{6}\nwhat separates them/);
  });

  it('trains and scores embed features against the endpoint of --embeddings-url, which the model file never records (issue 23)', { timeout: 120_000 }, async () => {
    const server = await startOpenAiCompatibleServer({ provider: createFunctionProvider(() => 'unused'), models: ['unused'] });
    try {
      const out = join(directory, 'embed.safetensors');
      await run(['rm', 'train', '--db', db, '--encoder', 'embed:sim-embedding/8@plan,structure,bits:10', '--no-tune', '--epochs', '1', '--out', out, '--embeddings-url', server.url]);
      expect(process.exitCode).toBeUndefined();
      const trainedRequests = server.stats.requests.embeddings;
      expect(trainedRequests).toBeGreaterThan(0);
      expect(readSafetensors(readFileSync(out)).metadata.encoder_spec).not.toMatch(/127\.0\.0\.1|baseURL/);
      const plans = join(directory, 'embed-plans.txt');
      writeFileSync(plans, ['{"dom": "low", "nodes": [{"id": "A", "agent": "cot", "input": ""}], "answer": "A"}', 'not a plan'].join('\n---\n'));
      const scored = await run(['rm', 'score', '--model', out, '--task', 'How many apples are left?', '--plans', plans, '--json', '--embeddings-url', server.url]);
      expect((JSON.parse(scored.stdout) as { scores: number[] }).scores).toHaveLength(2);
      expect(server.stats.requests.embeddings).toBeGreaterThan(trainedRequests);
    } finally {
      await server.close();
    }
  });

  it('chooses the encoder among --encoders on the validation split and records the choice in the model file (issue 21)', { timeout: 120_000 }, async () => {
    const out = join(directory, 'chosen.safetensors');
    const train = await run(['rm', 'train', '--db', db, '--encoders', 'length;shape,bits:14', '--out', out, '--seed', '1', '--epochs', '4', '--ensemble', '0', '--no-tune', '--json']);
    expect(process.exitCode).toBeUndefined();
    const { encoderChoice } = JSON.parse(train.stdout) as { encoderChoice: { by: string; validVsValidPairs: number; candidates: { encoder: string; validVsValidAccuracy: number }[]; chosen: string } };
    expect(encoderChoice.by).toBe('validation valid-vs-valid accuracy');
    expect(encoderChoice.validVsValidPairs).toBeGreaterThan(0);
    expect(encoderChoice.candidates.map((candidate) => candidate.encoder)).toEqual(['length,bits:18', 'shape,bits:14']);
    const best = encoderChoice.candidates.reduce((kept, candidate) => (candidate.validVsValidAccuracy > kept.validVsValidAccuracy ? candidate : kept));
    expect(encoderChoice.chosen).toBe(best.encoder);
    const metadata = readSafetensors(readFileSync(out)).metadata;
    expect(metadata.encoder_spec).toContain(best.encoder.startsWith('shape') ? '"shape"' : '"length"');
    expect(JSON.parse(metadata.metrics!)).toMatchObject({ encoderChoice: { chosen: best.encoder } });
    await expect(run(['rm', 'train', '--db', db, '--encoders', ' ; ', '--out', out])).resolves.toBeDefined();
    expect(process.exitCode).toBe(2);
  });

  it('fails with clear messages', async () => {
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await run(['rm', 'eval', '--model', join(directory, 'missing.safetensors'), '--db', db]);
    expect(process.exitCode).toBe(2);
    await run(['rm', 'train', '--db', db, '--encoder', 'words:9']);
    await run(['rm', 'train', '--db', db, '--dataset', 'nope']);
    await run(['rm', 'explain', '--model', join(directory, 'missing.safetensors'), '--plan', 'x']);
    await run(['rm', 'explain', '--model', join(directory, 'missing.safetensors'), '--db', db, '--plan', 'ep-none']);
    const written = errors.mock.calls.map(([chunk]) => String(chunk)).join('');
    expect(written).toMatch(/cannot read model file .*missing\.safetensors \(ENOENT\)/);
    expect(written).toMatch(/encoder item "words:9"/);
    expect(written).toMatch(/no pair dataset "nope"/);
    expect(written).toMatch(/rm explain needs --task/);
    expect(written).toMatch(/--plan ep-none: no such episode in /);
  });
});

describe('readPlansFile', () => {
  it('reads plans separated by --- lines, JSONL and single plans', () => {
    expect(readPlansFile('plan a\nline 2\n---\n\n---\nplan b\n')).toStrictEqual(['plan a\nline 2', 'plan b']);
    expect(readPlansFile('"plan a"\n{"planText": "plan b"}\n{"dom":"low","nodes":[]}\n')).toStrictEqual(['plan a', 'plan b', '{"dom":"low","nodes":[]}']);
    expect(readPlansFile('{\n  "dom": "low",\n  "nodes": []\n}\n')).toStrictEqual(['{\n  "dom": "low",\n  "nodes": []\n}']);
    expect(() => readPlansFile('  \n')).toThrow(/holds no plan/);
  });
});

describe('orchrm rm curve', () => {
  it('trains on growing shares of the training tasks and judges every point on the same held-out pairs', async () => {
    const { stdout } = await run(['rm', 'curve', '--db', db, '--dataset', 'synthetic-outcome', '--shares', '1,0.5', '--epochs', '3', '--json']);
    const curve = JSON.parse(stdout) as { points: { share: number; tasks: number; collectionTokens: number; validVsValid: { total: number }; bestOfN: { n: number } }[] };
    expect(curve.points.map((point) => point.share)).toEqual([0.5, 1]);
    const [half, all] = curve.points;
    expect(all!.tasks).toBeGreaterThan(half!.tasks);
    expect(all!.collectionTokens).toBeGreaterThan(half!.collectionTokens);
    expect(half!.validVsValid.total).toBe(all!.validVsValid.total);
    expect(half!.bestOfN.n).toBe(8);
  }, 120_000);

  it('refuses a share outside (0, 1]', async () => {
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await run(['rm', 'curve', '--db', db, '--shares', '0.5,1.5']);
    expect(process.exitCode).toBe(2);
    expect(errors.mock.calls.map((call) => String(call[0])).join('')).toMatch(/--shares must be numbers in \(0, 1\]/);
  });
});
