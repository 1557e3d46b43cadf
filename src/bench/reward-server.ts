import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type RewardModel, Rng } from '../core/index.js';
import { formatPlanXml } from '../plan/index.js';
import { loadRewardModel, syntheticPairs, syntheticPlan, syntheticTask, trainRewardModel } from '../rm/index.js';
import { startRewardServer } from '../serve/index.js';

export interface RewardServerBenchOptions {
  /** Models to serve, one run each: a fake constant-time model, and a linear BT model trained on synthetic pairs. @default ['fake', 'linear'] */
  models?: readonly ('fake' | 'linear')[];
  /** Model file served as `linear` instead of one trained here on 2000 synthetic pairs. */
  linearModelFile?: string;
  /** @default 30 @unit seconds */
  durationS?: number;
  /** @default 64 */
  connections?: number;
  /** @default 8 */
  plansPerRequest?: number;
  /** The mixed run (valid requests with a share of invalid ones): duration, connections, invalid share. @default 10 s, 128, 0.1 */
  mixed?: { durationS?: number; connections?: number; invalidShare?: number };
}

interface ServerSpec {
  model: 'fake' | 'linear';
  modelFile?: string;
  token: string;
  maxPlans: number;
  maxBodyBytes: number;
}

interface BenchRequest {
  path: string;
  body: Buffer;
  headers: Record<string, string>;
  valid: boolean;
}

const TOKEN = 'bench-token';
const SPEC_LIMITS = { maxPlans: 64, maxBodyBytes: 256 * 1024 };

/**
 * Throughput and tail latency of the reward server under load, with the load generated here
 * (node's http.Agent, keep-alive, one request at a time per connection) and the server in a
 * worker thread so client and server do not share an event loop:
 * - clean runs: `POST /v1/score` with `plansPerRequest` plans for `durationS` at `connections`
 *   (`requestsPerSecond`, and `plansPerSecond` = requests/s x plans per request); the linear
 *   model's requests/s is repeated at the top as `requestsPerSecond`, with `plansPerRequest`;
 * - a mixed run: the same with `invalidShare` invalid requests (bad JSON, wrong types, too many
 *   plans, oversized bodies, no token, unknown route), reporting 5xx answers (must be 0) and
 *   dropped valid requests (valid ones not answered 200; must be 0).
 */
export async function benchRewardServer(options: RewardServerBenchOptions = {}) {
  const { models = ['fake', 'linear'], linearModelFile, durationS = 30, connections = 64, plansPerRequest = 8, mixed = {} } = options;
  const { durationS: mixedDurationS = 10, connections: mixedConnections = 128, invalidShare = 0.1 } = mixed;
  const pool = validRequests(2048, plansPerRequest);
  // Other processes on the machine shift these figures a lot: record how busy it was.
  const results: Record<string, unknown> = { cpus: availableParallelism(), loadAverage1mAtStart: Math.round(loadavg()[0]! * 100) / 100 };
  for (const model of models) {
    await withServer({ model, token: TOKEN, ...SPEC_LIMITS, ...(linearModelFile ? { modelFile: linearModelFile } : {}) }, async (port, modelName) => {
      await runLoad(port, 4, 2000, (index) => pool[index % pool.length]!); // warm-up: JIT, plan cache
      const clean = await runLoad(port, connections, durationS * 1000, (index) => pool[index % pool.length]!);
      results[model] = { model: modelName, connections, durationS, plansPerRequest, ...clean, plansPerSecond: clean.requestsPerSecond * plansPerRequest };
      // The headline figure: the trained linear model, `plansPerRequest` plans per request.
      if (model === 'linear') Object.assign(results, { requestsPerSecond: clean.requestsPerSecond, plansPerRequest });
    });
  }
  const rng = new Rng(7);
  await withServer({ model: 'fake', token: TOKEN, ...SPEC_LIMITS }, async (port, modelName) => {
    const run = await runLoad(port, mixedConnections, mixedDurationS * 1000, (index) => (rng.chance(invalidShare) ? invalidRequest(index, pool) : pool[index % pool.length]!));
    results.mixed = { model: modelName, connections: mixedConnections, durationS: mixedDurationS, invalidShare, ...run };
  });
  return results;
}

/** Runs `load` against a server in a worker thread, then closes it. */
async function withServer(spec: ServerSpec, load: (port: number, modelName: string) => Promise<void>): Promise<void> {
  // The worker runs this very module (built JavaScript, as `npm run bench` runs).
  const worker = new Worker(new URL(import.meta.url), { workerData: { orchrmBench: 'reward-server', spec } });
  const listening = await new Promise<{ port: number; model: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  try {
    await load(listening.port, listening.model);
  } finally {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }
}

/** `connections` loops, each sending its next request as soon as the last one is answered, until `durationMs` passes. */
async function runLoad(port: number, connections: number, durationMs: number, next: (index: number) => BenchRequest) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let validSent = 0;
  let validOk = 0;
  let connectionErrors = 0;
  const startedAt = performance.now();
  const endAt = startedAt + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < endAt) {
        const item = next(sent++);
        const requestStartedAt = performance.now();
        const status = await send(agent, port, item);
        latenciesMs.push(performance.now() - requestStartedAt);
        if (status === 0) connectionErrors++;
        else statuses[status] = (statuses[status] ?? 0) + 1;
        if (item.valid) {
          validSent++;
          if (status === 200) validOk++;
        }
      }
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  agent.destroy();
  latenciesMs.sort((a, b) => a - b);
  const quantile = (q: number) => Math.round((latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))] ?? 0) * 100) / 100;
  const serverErrors = Object.entries(statuses).reduce((sum, [status, count]) => sum + (Number(status) >= 500 ? count : 0), 0);
  return {
    requests: latenciesMs.length,
    requestsPerSecond: Math.round(latenciesMs.length / elapsedS),
    latencyMs: { p50: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99), max: quantile(1) },
    statuses,
    serverErrors,
    connectionErrors,
    validSent,
    droppedValid: validSent - validOk,
  };
}

/** Sends one request; resolves with the status, or 0 when the connection failed. */
function send(agent: Agent, port: number, item: BenchRequest): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(
      { agent, host: '127.0.0.1', port, method: 'POST', path: item.path, headers: { ...item.headers, 'content-length': item.body.length }, timeout: 30_000 },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
        response.once('error', () => resolve(0));
      },
    );
    outgoing.once('timeout', () => outgoing.destroy());
    outgoing.once('error', () => resolve(0));
    outgoing.end(item.body);
  });
}

const HEADERS = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };

/** Distinct 8-plan requests over synthetic tasks and XML plans (about 1.5 KB a plan), more plans than the model's plan cache holds. */
function validRequests(count: number, plansPerRequest: number): BenchRequest[] {
  const rng = new Rng(1);
  const blocks = ['cot', 'sc', 'reflexion', 'debate', 'search'];
  return Array.from({ length: count }, (_, index) => {
    const task = syntheticTask(rng, index).question;
    const plans = Array.from({ length: plansPerRequest }, () => formatPlanXml(syntheticPlan(rng, Array.from({ length: rng.int(1, 4) }, () => rng.pick(blocks)))));
    return { path: '/v1/score', body: Buffer.from(JSON.stringify({ task, plans })), headers: HEADERS, valid: true };
  });
}

/** One of six kinds of bad request, in turn. */
function invalidRequest(index: number, pool: readonly BenchRequest[]): BenchRequest {
  const invalid = (body: string | Buffer, overrides: Partial<BenchRequest> = {}): BenchRequest => ({ path: '/v1/score', body: Buffer.from(body), headers: HEADERS, valid: false, ...overrides });
  switch (index % 6) {
    case 0:
      return invalid('{"task": "t", "plans": [');
    case 1:
      return invalid(JSON.stringify({ task: 42, plans: [{ nodes: [] }] }));
    case 2:
      return invalid(JSON.stringify({ task: 't', plans: Array.from({ length: SPEC_LIMITS.maxPlans + 1 }, () => 'p') }));
    case 3:
      return invalid(Buffer.alloc(SPEC_LIMITS.maxBodyBytes + 1024, 0x20));
    case 4:
      return { ...pool[index % pool.length]!, valid: false, headers: { 'content-type': 'application/json' } };
    default:
      return invalid('{}', { path: '/v1/nothing-here' });
  }
}

/** A model that costs nothing, so the figures measure the server alone. */
function fakeFastModel(): RewardModel {
  return { name: 'fake-fast', score: async (task, plans) => plans.map((plan, index) => (typeof plan === 'string' ? plan.length : 0) - task.length + index) };
}

/** Serves in this worker thread until the parent posts 'close'. */
async function serveInWorker(spec: ServerSpec): Promise<void> {
  const model =
    spec.model === 'fake'
      ? fakeFastModel()
      : spec.modelFile
        ? await loadRewardModel(spec.modelFile)
        : (await trainRewardModel(syntheticPairs({ pairs: 2000, seed: 1 }), { seed: 1 })).model;
  const server = await startRewardServer({ model, token: spec.token, maxPlans: spec.maxPlans, maxBodyBytes: spec.maxBodyBytes });
  parentPort!.once('message', () => void server.close());
  parentPort!.postMessage({ port: server.port, model: model.name });
}

if (!isMainThread && (workerData as { orchrmBench?: string } | null)?.orchrmBench === 'reward-server') {
  await serveInWorker((workerData as { spec: ServerSpec }).spec);
}
