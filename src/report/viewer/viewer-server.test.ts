import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServer } from '../../core/index.js';
import { loadRewardModel, type TrainedRewardModel } from '../../rm/index.js';
import { openStore, type Store } from '../../store/index.js';
import { buildViewerDatabase, HOSTILE, HOSTILE_TASK_ID, type ViewerDatabase } from './test-fixtures/viewer-database.js';
import { ViewerData, type ViewerComparison, type ViewerNode, type ViewerTask } from './viewer-data.js';
import { jsonForScriptBlock, renderViewerPage } from './viewer-page.js';
import { VIEWER_SCRIPT } from './viewer-script.js';
import { startViewerServer } from './viewer-server.js';

let directory: string;
let fixture: ViewerDatabase;
let store: Store;
let model: TrainedRewardModel;
let server: HttpServer;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-viewer-api-'));
  fixture = await buildViewerDatabase(directory);
  store = openStore(fixture.db, { readonly: true });
  model = await loadRewardModel(fixture.model);
  const byId = new Map(fixture.documents.map((document) => [document.id, document]));
  const data = new ViewerData({ store, model, documents: async (ids) => new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : []))) });
  server = await startViewerServer({ data, database: 'viewer.db' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  model?.close();
  store?.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A GET with an explicit Host header (fetch does not let one set it). */
function get(path: string, options: { host?: string; method?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const outgoing = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: options.method ?? 'GET', headers: { host: options.host ?? url.host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
const json = async <T>(path: string): Promise<T> => {
  const response = await get(path);
  expect(response.status, `${path}: ${response.body}`).toBe(200);
  return JSON.parse(response.body) as T;
};

describe('the viewer server', () => {
  it('serves the page with its policy, and answers pages of tasks as the store lists them', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; .*connect-src 'self'.*frame-ancestors 'none'$/);
    // No reference outside the page (the SVG namespace is a name, never fetched); the data block (the first page of tasks) holds no markup.
    const [before, data, after] = page.body.split(/<script type="application\/json" id="viewer-boot">|<\/script>\n<script>/);
    expect(data).not.toMatch(/[<>]/);
    expect(`${before}${after}`.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/<(link|img|iframe)\b|\bsrc=|https?:\/\//);
    // 12 collected tasks, the hostile one, and two that only the Best-of-N run names.
    const facets = await json<{ tasks: number; families: { value: string }[]; outcomes: { value: string; tasks: number }[] }>('/api/facets');
    expect(facets.tasks).toBe(15);
    expect(facets.families.map((family) => family.value).sort()).toEqual(['arith', `fam ${HOSTILE}`, 'multihop']);
    expect(facets.outcomes.find((outcome) => outcome.value === 'no-episodes')?.tasks).toBe(2);
    const first = await json<{ total: number; tasks: { id: string; bestOfN: boolean }[] }>('/api/tasks?limit=5');
    expect(first.total).toBe(15);
    expect(first.tasks.map((task) => task.id)).toEqual(store.taskIndex().list({ limit: 5 }).tasks.map((task) => task.id));
    const arith = await json<{ total: number; tasks: { family: string }[] }>('/api/tasks?family=arith&offset=0');
    expect(arith.tasks.every((task) => task.family === 'arith')).toBe(true);
    expect(arith.tasks).toHaveLength(arith.total);
    // The stored tasks first, then the Best-of-N ones, across a page boundary.
    const last = await json<{ total: number; tasks: { id: string; bestOfN: boolean; outcome: string; question: string }[] }>('/api/tasks?limit=3&offset=12');
    expect(last.total).toBe(15);
    expect(last.tasks.map((task) => [task.id.startsWith('test-sim-'), task.bestOfN, task.outcome])).toEqual([
      [false, false, expect.any(String)],
      [true, true, 'no-episodes'],
      [true, true, 'no-episodes'],
    ]);
    expect((await json<{ tasks: unknown[] }>('/api/tasks?split=train&offset=0')).tasks.length).toBe(store.taskIndex().list({ split: 'train' }).total);
  });

  it('answers a task with every plan, the model’s scores and their reasons, and its pairs', async () => {
    const id = store.taskIndex().list({ family: 'multihop', limit: 1 }).tasks[0]!.id;
    const task = await json<ViewerTask>(`/api/task?id=${encodeURIComponent(id)}`);
    const episodes = store.listEpisodes({ taskId: id });
    expect(task.plans.map((plan) => plan.episodeId).sort()).toEqual(episodes.map((episode) => episode.id).sort());
    const scores = await model.score(task.task.question!, task.plans.map((plan) => store.getEpisode(plan.episodeId)!.planText));
    for (const [index, plan] of task.plans.entries()) {
      expect(plan.score).toBeCloseTo(scores[index]!, 12);
      const explanation = plan.explanation!;
      const sum = explanation.baseline + explanation.top.reduce((total, entry) => total + entry.contribution, 0) + explanation.rest.contribution;
      expect(sum).toBeCloseTo(plan.score!, 9);
      const episode = episodes.find((entry) => entry.id === plan.episodeId)!;
      expect(plan.correct).toBe(episode.correct ?? null);
      expect(plan.tokens.execution).toBe(episode.usage.execution.totalTokens);
    }
    expect(task.pairs.length).toBe(store.countPairs({ taskId: id }));
    expect(task.pairs.every((pair) => pair.readsGrades === (pair.source === 'outcome' || pair.source === 'efficiency'))).toBe(true);

    const comparison = await json<ViewerComparison>(`/api/compare?task=${encodeURIComponent(id)}&a=${task.plans[0]!.episodeId}&b=${task.plans[1]!.episodeId}`);
    expect(comparison.difference).toBeCloseTo(task.plans[0]!.score! - task.plans[1]!.score!, 12);
    expect(comparison.top.reduce((total, entry) => total + entry.difference, 0) + comparison.rest.difference).toBeCloseTo(comparison.difference, 9);
  });

  it('answers which candidate each Best-of-N strategy picked on a task, stored or not', async () => {
    const onlyBestOfN = (await json<{ tasks: { id: string }[] }>('/api/tasks?offset=13')).tasks[0]!.id;
    const task = await json<ViewerTask>(`/api/task?id=${onlyBestOfN}`);
    expect(task.task.question).toBeNull();
    expect(task.plans).toEqual([]);
    const [run] = task.bestOfN;
    expect(run!.rewardModel).toBe(fixture.model);
    const rows = run!.rows.filter((row) => !row.strategy.startsWith('fixed:'));
    expect(rows.map((row) => `${row.strategy}@${row.n}`).sort()).toEqual(['majority@1', 'majority@4', 'oracle@1', 'oracle@4', 'rm+templates@1', 'rm+templates@4', 'rm@1', 'rm@4', 'single@1', 'single@4']);
    const rm = rows.find((row) => row.strategy === 'rm' && row.n === 4)!;
    expect(rm.pick).toMatchObject({ source: 'sample', kind: expect.any(String), score: expect.any(Number) });
    expect(rm.pick!.index).toBeLessThan(4);
    const single = rows.find((row) => row.strategy === 'single' && row.n === 4)!;
    expect(single.pick).toMatchObject({ source: 'sample', index: 0, score: null });
    const fixed = run!.rows.filter((row) => row.strategy.startsWith('fixed:'));
    expect(fixed.length).toBeGreaterThan(0);
    for (const row of fixed) expect(row.pick).toMatchObject({ source: 'template', kind: row.strategy.slice('fixed:'.length) });

    const collected = (await json<{ tasks: { id: string; bestOfN: boolean }[] }>('/api/tasks?limit=13')).tasks.find((entry) => entry.bestOfN)!;
    const both = await json<ViewerTask>(`/api/task?id=${collected.id}`);
    expect(both.plans.length).toBeGreaterThan(0);
    expect(both.bestOfN[0]!.rows.length).toBe(run!.rows.length);
  });

  it('answers a node with its artifacts, the documents its searches returned, and its calls with their errors', async () => {
    const searchNode = store.db
      .prepare<[], { episode_id: string; position: number }>(`SELECT episode_id, position FROM node_traces WHERE agent = 'search' AND artifacts LIKE '%"docIds":["%' LIMIT 1`)
      .get()!;
    const node = await json<ViewerNode>(`/api/node?episode=${searchNode.episode_id}&position=${searchNode.position}`);
    const trace = store.getEpisode(searchNode.episode_id)!.nodes[searchNode.position]!;
    expect(node.input).toBe(trace.input);
    expect(node.calls.map((call) => call.response)).toEqual(trace.calls.map((call) => call.response));
    expect(node.documents.length).toBeGreaterThan(0);
    expect(node.documents.map((document) => document.text)).toEqual(node.documents.map((document) => fixture.documents.find((known) => known.id === document.id)!.text));

    const failed = await json<ViewerNode>('/api/node?episode=ep-hostile&position=5');
    expect(failed.status).toBe('runtime_error');
    expect(failed.calls[0]!.error).toBe(`HTTP 500: upstream error ${HOSTILE}`);
  });

  it('refuses what it does not serve: bad queries, unknown ids, other methods, other hosts', async () => {
    expect((await get('/api/tasks?limit=abc')).status).toBe(400);
    expect((await get('/api/tasks?outcome=great')).status).toBe(400);
    expect(JSON.parse((await get('/api/tasks?unknown=1')).body).error).toMatch(/unknown/i);
    expect((await get('/api/task?id=nope')).status).toBe(404);
    expect((await get(`/api/task?id=${encodeURIComponent(HOSTILE_TASK_ID)}`)).status).toBe(200);
    expect((await get('/api/node?episode=ep-hostile&position=99')).status).toBe(404);
    expect((await get('/api/compare?task=nope&a=x&b=y')).status).toBe(404);
    expect((await get('/nope')).status).toBe(404);
    const post = await get('/api/facets', { method: 'POST' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
    // A page on another origin that rebinds its name to 127.0.0.1 sends its own Host.
    expect((await get('/api/facets', { host: 'attacker.example:80' })).status).toBe(403);
    expect((await get('/api/facets', { host: `localhost:${server.port}` })).status).toBe(200);
  });
});

describe('the page', () => {
  it('embeds data so that no text can close its script block', () => {
    const embedded = jsonForScriptBlock({ text: HOSTILE, separators: '\u2028\u2029' });
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(embedded)).toEqual({ text: HOSTILE, separators: '\u2028\u2029' });
    const html = renderViewerPage({ mode: 'file', database: HOSTILE, note: HOSTILE, snapshot: { text: HOSTILE } });
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).toContain('connect-src &#39;none&#39;');
  });

  it('has a script that never writes markup and has no template literal', () => {
    expect(VIEWER_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|`|\$\{/);
    expect(VIEWER_SCRIPT).not.toMatch(/<\/script/i);
  });
});
