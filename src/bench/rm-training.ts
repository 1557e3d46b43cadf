import { getEncoding } from 'js-tiktoken';
import { Rng } from '../core/index.js';
import { createHead, DEFAULT_ENCODER_SPEC_TEXT, encodePairs, FeaturePipeline, parseBtConfig, syntheticPairs, trainBradleyTerry } from '../rm/index.js';

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Wall and CPU time since a start mark: on a shared machine CPU time is the fairer figure. */
function stopwatch() {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  return () => {
    const cpu = process.cpuUsage(cpuStart);
    return { wallMs: performance.now() - wallStart, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
}

/** Mean cl100k token count of a sample of texts. */
function meanTokens(texts: readonly string[]): number {
  const encoding = getEncoding('cl100k_base');
  return Math.round(texts.reduce((sum, text) => sum + encoding.encode(text).length, 0) / texts.length);
}

/**
 * Reward-model training on 100,000 synthetic pairs (tasks of ~80 tokens, plans of
 * ~300 tokens, several plans per task as mined pairs have), default encoder spec:
 * - `encodeMs`: parsing, canonicalising and encoding every distinct (task, plan) once;
 * - `linearMs` / `mlpMs`: encoding plus training (`linearTrainMs` / `mlpTrainMs` training only),
 *   with default settings and early stopping on the 10% validation split (MLP: 16 hidden units);
 * - `peakRssMb`: the largest resident set seen at phase ends.
 * Times are wall-clock; `cpu` repeats them in CPU time (user + system of this process), which
 * is what they would be on an idle machine when other processes compete for the cores.
 */
export async function benchRmTraining(pairCount = 100_000) {
  let peakRss = process.memoryUsage().rss;
  const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  const pairs = syntheticPairs({ pairs: pairCount, seed: 1 });
  const config = parseBtConfig({ encoder: DEFAULT_ENCODER_SPEC_TEXT, seed: 1 });

  let stop = stopwatch();
  const pipeline = new FeaturePipeline(config.encoder);
  const dataset = await encodePairs(pairs, pipeline);
  const encode = stop();
  sampleRss();

  stop = stopwatch();
  const linear = createHead(config.head, pipeline.dimension, config.seed);
  const linearRun = trainBradleyTerry(dataset, linear, config);
  const linearTrain = stop();
  sampleRss();

  const mlpConfig = parseBtConfig({ encoder: DEFAULT_ENCODER_SPEC_TEXT, seed: 1, head: { kind: 'mlp', hidden: 16 }, learningRate: 0.003 });
  stop = stopwatch();
  const mlp = createHead(mlpConfig.head, pipeline.dimension, mlpConfig.seed);
  const mlpRun = trainBradleyTerry(dataset, mlp, mlpConfig);
  const mlpTrain = stop();
  sampleRss();

  // Texts of the kind scored at serving time, 8 plans per task as in Best-of-8 (scoring speed: the rmScoring suite).
  const probe = syntheticPairs({ pairs: 4000, seed: 2, pairsPerTask: 4 });
  const byTask = new Map<string, string[]>();
  for (const pair of probe) byTask.set(pair.question, [...(byTask.get(pair.question) ?? []), pair.winner.planText, pair.loser.planText]);
  const sampleTexts = new Rng(3).shuffle([...byTask.values()].flat()).slice(0, 300);
  return {
    pairs: pairCount,
    distinctPlans: dataset.matrix.rowCount,
    meanPlanTokens: meanTokens(sampleTexts),
    meanTaskTokens: meanTokens([...byTask.keys()].slice(0, 100)),
    meanNonzerosPerPlan: Math.round(dataset.matrix.indices.length / dataset.matrix.rowCount),
    encodeMs: Math.round(encode.wallMs),
    linearMs: Math.round(encode.wallMs + linearTrain.wallMs),
    linearTrainMs: Math.round(linearTrain.wallMs),
    linearEpochs: linearRun.history.length,
    linearValidationAccuracy: linearRun.history[linearRun.bestEpoch - 1]?.validation?.accuracy,
    mlpMs: Math.round(encode.wallMs + mlpTrain.wallMs),
    mlpTrainMs: Math.round(mlpTrain.wallMs),
    mlpEpochs: mlpRun.history.length,
    mlpValidationAccuracy: mlpRun.history[mlpRun.bestEpoch - 1]?.validation?.accuracy,
    peakRssMb: mb(peakRss),
    cpu: {
      encodeMs: Math.round(encode.cpuMs),
      linearMs: Math.round(encode.cpuMs + linearTrain.cpuMs),
      mlpMs: Math.round(encode.cpuMs + mlpTrain.cpuMs),
    },
  };
}
