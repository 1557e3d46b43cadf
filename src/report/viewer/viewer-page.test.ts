import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HttpServer } from '../../core/index.js';
import { loadRewardModel, type TrainedRewardModel } from '../../rm/index.js';
import { openStore, type Store } from '../../store/index.js';
import { buildViewerDatabase, HOSTILE, HOSTILE_TASK_ID, type ViewerDatabase } from './test-fixtures/viewer-database.js';
import { ViewerData } from './viewer-data.js';
import { renderViewerFile } from './viewer-file.js';
import { startViewerServer } from './viewer-server.js';

/** Debian's Chromium; `.ci/run` installs it when missing (`apt-get install -y chromium`). */
const CHROMIUM_PATH = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM_PATH);
const title = hasChromium
  ? 'the viewer in headless Chromium'
  : `the viewer in headless Chromium (SKIPPED: ${CHROMIUM_PATH} not found; install it with apt-get install -y chromium, as .ci/run does)`;
if (!hasChromium) process.stderr.write(`orchrm viewer page test skipped: ${CHROMIUM_PATH} not found; install it with apt-get install -y chromium\n`);

let directory: string;
let fixture: ViewerDatabase;
let store: Store;
let model: TrainedRewardModel;
let server: HttpServer;
let browser: Browser;

/** A page that records every request leaving `allowed` (and aborts it) and every console error. */
async function openPage(allowed: (url: string) => boolean): Promise<{ page: Page; leftThePage: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const leftThePage: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    leftThePage.push(url);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, leftThePage, errors };
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

describe.skipIf(!hasChromium)(title, () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'orchrm-viewer-page-'));
    fixture = await buildViewerDatabase(directory);
    store = openStore(fixture.db, { readonly: true });
    model = await loadRewardModel(fixture.model);
    const byId = new Map(fixture.documents.map((document) => [document.id, document]));
    const data = new ViewerData({ store, model, documents: async (ids) => new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : []))) });
    server = await startViewerServer({ data, database: 'viewer.db' });
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    model?.close();
    store?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  test('served: browse tasks, filter, open a task, a plan and a node, and compare two plans', { timeout: 120_000 }, async () => {
    const { page, leftThePage, errors } = await openPage((url) => url.startsWith(`${server.url}/`));
    await page.goto(`${server.url}/`);
    // The first task opens by itself.
    await page.waitForSelector('article.plan');
    const listed = store.taskIndex().list({ limit: 50 });
    // The stored tasks, and the two tasks only the Best-of-N run names.
    expect(await page.locator('a.task-item').count()).toBe(listed.total + 2);
    expect(await page.locator('#page-position').textContent()).toBe(`1–${listed.total + 2} of ${listed.total + 2}`);
    expect(await page.locator('#task-title code').textContent()).toBe(listed.tasks[0]!.id);

    // A task whose plans include one of several nodes.
    const taskId = store.db
      .prepare<[], { task_id: string }>(`SELECT task_id FROM episodes e WHERE json_array_length(e.plan, '$.nodes') > 1 AND task_id NOT LIKE 'hostile%' ORDER BY rowid LIMIT 1`)
      .get()!.task_id;
    await page.click(`a.task-item[data-task-id="${taskId}"]`);
    await expect.poll(() => page.locator('#task-title code').textContent()).toBe(taskId);
    expect(await page.getAttribute(`a.task-item[data-task-id="${taskId}"]`, 'aria-current')).toBe('true');
    const question = store.getTask(taskId)!.question;
    expect(await page.locator('.question-text').textContent()).toBe(question);

    // Every plan of the task, side by side, with its outcome, tokens and score.
    const episodes = store.listEpisodes({ taskId });
    const cards = page.locator('article.plan');
    expect(await cards.count()).toBe(episodes.length);
    const scores = new Map<string, number>();
    for (const episode of episodes) {
      const card = page.locator(`article.plan[data-episode-id="${episode.id}"]`);
      const badge = await card.locator('.plan-head .badge').first().textContent();
      expect(badge).toBe(episode.status !== 'ok' && episode.correct !== true ? episode.status.replace('_', ' ') : episode.correct ? 'correct' : 'incorrect');
      const [score] = await model.score(question, [store.getEpisode(episode.id)!.planText]);
      scores.set(episode.id, score!);
      expect(await card.locator('.score-value').textContent()).toBe(score!.toFixed(3));
      expect(await card.locator('.plan-tokens').textContent()).toContain(`execution ${episode.usage.execution.totalTokens.toLocaleString('en-US')}`);
      expect(await card.locator('.contributions li').count()).toBeGreaterThan(0);
    }
    const best = [...scores].sort((a, b) => b[1] - a[1])[0]![0];
    expect(await page.locator('article.plan:has(.badge.pick)').getAttribute('data-episode-id')).toBe(best);

    // Open the multi-node plan, then one of its nodes.
    const multi = store.db.prepare<[string], { id: string }>(`SELECT id FROM episodes WHERE task_id = ? AND json_array_length(plan, '$.nodes') > 1 LIMIT 1`).get(taskId)!.id;
    const card = page.locator(`article.plan[data-episode-id="${multi}"]`);
    await card.locator('a.plan-title').click();
    await expect.poll(() => card.getAttribute('class')).toContain('selected');
    const traces = store.getEpisode(multi)!.nodes;
    expect(await card.locator('g.node').count()).toBe(store.getEpisode(multi)!.plan!.nodes.length);
    expect(await card.locator('path.edge').count()).toBe(store.getEpisode(multi)!.plan!.edges.length);
    const trace = traces[traces.length - 1]!;
    await card.locator(`g.node[data-node-id="${trace.nodeId}"]`).click();
    await page.waitForSelector('#node-title');
    const planNumber = (await cards.evaluateAll((items) => items.map((item) => item.getAttribute('data-episode-id')))).indexOf(multi) + 1;
    expect(await page.locator('#node-title').textContent()).toBe(`Node ${trace.nodeId} (${trace.agent}) of plan ${planNumber}`);
    expect(await page.locator('.node-input').textContent()).toBe(trace.input);
    expect(await page.locator('.node-answer').textContent()).toBe(trace.answer ?? '(none)');
    expect(await page.locator('li.call').count()).toBe(trace.calls.length);
    expect(await page.locator('.call-response').first().textContent()).toBe(trace.calls[0]!.response);
    // Back leaves the node.
    await page.goBack();
    await expect.poll(() => page.locator('#node-title').count()).toBe(0);

    // What separates the model's first and last choice.
    await page.click('#compare-run');
    await page.waitForSelector('#compare-difference');
    const [a, b] = [await page.inputValue('#compare-a'), await page.inputValue('#compare-b')];
    expect(await page.locator('#compare-difference').textContent()).toBe(signed(scores.get(a)! - scores.get(b)!));

    // A task only the Best-of-N run names: each strategy's pick at each N.
    await page.locator('a.task-item', { hasText: 'Best-of-N' }).last().click();
    await page.waitForSelector('#best-of-n');
    expect(await page.locator('article.plan').count()).toBe(0);
    const rmRow = page.locator('#best-of-n tr', { has: page.locator('.strategy', { hasText: /^rm$/ }) });
    expect(await rmRow.locator('td').nth(1).textContent()).toMatch(/^(right|wrong) sample [1-4] \(.+\) · -?\d+\.\d\d$/);
    expect(await page.locator('#best-of-n .fixed-plan').first().textContent()).toMatch(/^(right|wrong) \S+ $/);

    // Filters: family, outcome, and the text search.
    const arithTotal = new ViewerData({ store }).tasks({ family: 'arith' }).total;
    await page.selectOption('#filter-family', 'arith');
    await expect.poll(() => page.locator('#page-position').textContent()).toBe(`1–${arithTotal} of ${arithTotal}`);
    for (const meta of await page.locator('.task-item-meta').allTextContents()) expect(meta.startsWith('arith')).toBe(true);
    await page.selectOption('#filter-family', '');
    await page.selectOption('#filter-outcome', 'none-correct');
    const noneCorrect = store.taskIndex().list({ outcome: 'none-correct' }).total;
    await expect.poll(() => page.locator('a.task-item').count()).toBe(noneCorrect);
    await page.selectOption('#filter-outcome', '');
    await page.fill('#filter-search', 'WHAT DOES </script>');
    await expect.poll(() => page.locator('a.task-item').count()).toBe(1);

    // The hostile task: every text shows as itself, nothing runs.
    await page.locator('a.task-item').first().click();
    await expect.poll(() => page.locator('#task-title code').textContent()).toBe(HOSTILE_TASK_ID);
    expect(await page.locator('.question-text').textContent()).toBe(`What does ${HOSTILE} say?`);
    expect(await page.locator('#gold-answer').textContent()).toBe(`<i>${HOSTILE}</i>`);
    expect(await page.locator('.plan-source').textContent()).toContain(`\n${HOSTILE}`);
    expect(await page.locator('.final-answer').textContent()).toContain(HOSTILE);
    const hostileCard = page.locator('article.plan[data-episode-id="ep-hostile"]');
    await hostileCard.locator('g.node[data-node-id="F"]').click();
    await page.waitForSelector('.call-error');
    expect(await page.locator('.call-error').textContent()).toBe(`Error: HTTP 500: upstream error ${HOSTILE}`);
    expect(await page.locator('.node-panel .error').first().textContent()).toContain(HOSTILE);
    await hostileCard.locator('g.node[data-node-id="A"]').click();
    await page.waitForSelector('.search-query');
    expect(await page.locator('.search-query').first().textContent()).toContain(HOSTILE);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('main img, main script, main b, main i').count()).toBe(0);

    expect(leftThePage).toEqual([]);
    expect(errors).toEqual([]);
    const screenshot = join(directory, 'viewer.png');
    await page.screenshot({ path: screenshot });
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe('PNG');
    await page.close();
  });

  test('file mode: one page holding the first tasks, browsed with no request at all', { timeout: 60_000 }, async () => {
    const data = new ViewerData({ store, model, maxTextChars: 4000 });
    const rendered = await renderViewerFile({ data, database: 'viewer.db', maxTasks: 5 });
    expect([rendered.included, rendered.matching, rendered.stoppedBy]).toEqual([5, 15, 'max-tasks']);
    const path = join(directory, 'viewer.html');
    writeFileSync(path, rendered.html);
    const { page, leftThePage, errors } = await openPage((url) => url === pathToFileURL(path).href);
    await page.goto(pathToFileURL(path).href);
    await page.waitForSelector('article.plan');
    expect(await page.locator('#viewer-note').textContent()).toContain('This file holds the first 5 of 15 matching tasks in stored order');
    const listed = store.taskIndex().list({ limit: 5 }).tasks;
    expect(await page.locator('a.task-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-task-id')))).toEqual(listed.map((task) => task.id));
    await page.click(`a.task-item[data-task-id="${listed[2]!.id}"]`);
    await expect.poll(() => page.locator('#task-title code').textContent()).toBe(listed[2]!.id);
    const episode = store.listEpisodes({ taskId: listed[2]!.id })[0]!;
    const trace = store.getEpisode(episode.id)!.nodes[0]!;
    await page.locator(`article.plan[data-episode-id="${episode.id}"] g.node[data-node-id="${trace.nodeId}"]`).click();
    await page.waitForSelector('#node-title');
    expect(await page.locator('.node-input').textContent()).toBe(trace.input);
    expect(await page.locator('#compare-run').count()).toBe(0);
    expect(leftThePage).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
