import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { parseResults } from './read-results.js';
import { renderReport } from './render-report.js';

/** Debian's Chromium; `.ci/run` installs it when missing (`apt-get install -y chromium`). */
const CHROMIUM_PATH = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM_PATH);
const title = hasChromium
  ? 'report page in headless Chromium'
  : `report page in headless Chromium (SKIPPED: ${CHROMIUM_PATH} not found; install it with apt-get install -y chromium, as .ci/run does)`;
if (!hasChromium) process.stderr.write(`orchrm report page test skipped: ${CHROMIUM_PATH} not found; install it with apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)(title, () => {
  test('every chart renders one mark per data point, nothing leaves the page, and a screenshot is written', { timeout: 90_000 }, async () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results.json', import.meta.url), 'utf8'), 'fixture');
    // Kept after the test so the screenshot can be looked at.
    const outDir = mkdtempSync(join(tmpdir(), 'orchrm-report-page-'));
    const { path } = await renderReport(results, { outDir });
    // Data points per chart, counted from the fixture (not from the page's own attributes).
    const expectedPoints: Record<string, number> = {
      'bon-accuracy-tokens': results.bon.perN.reduce((sum, table) => sum + Object.keys(table.strategies).length, 0),
      'grpo-accuracy-tokens': [results.grpo.rm, results.grpo.execution].reduce((sum, run) => sum + run.curve.filter((point) => point.trainingTokens.total > 0).length, 0),
      'rm-pair-accuracy': (1 + Object.keys(results.rm.baselines).length) * (1 + Object.keys(results.rm.pairAccuracy.perSource).length),
      'rm-reliability': results.rm.calibration.bins.filter((bin) => bin.count > 0).length,
      'pair-counts': Object.keys(results.pairs).length,
      'pair-agreement': Object.values(results.pairs).filter((stats) => stats.agreementWithOutcome !== null).length,
      'loop-rounds': 2 * (results.loop?.length ?? 0),
    };

    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      const leftThePage: string[] = [];
      const consoleErrors: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
        leftThePage.push(url);
        return route.abort();
      });
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(error.message));
      await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });

      const charts = await page.$$eval('figure[data-chart]', (figures) =>
        figures.map((figure) => {
          const svg = figure.querySelector('svg');
          const markClass = figure.getAttribute('data-point-marks') ?? '';
          const items = svg === null ? 0 : [...svg.querySelectorAll(`g.role-mark.${markClass}`)].reduce((sum, group) => sum + group.children.length, 0);
          const box = svg?.getBoundingClientRect();
          return {
            id: figure.getAttribute('data-chart') ?? '',
            markClass,
            declared: Number(figure.getAttribute('data-points')),
            items,
            width: box?.width ?? 0,
            height: box?.height ?? 0,
            accessibleName: svg?.querySelector('title')?.textContent ?? '',
            labelledBy: svg?.getAttribute('aria-labelledby') ?? '',
            caption: figure.querySelector('figcaption')?.textContent ?? '',
          };
        }),
      );
      expect(charts.map((chart) => chart.id).sort()).toEqual(Object.keys(expectedPoints).sort());
      // Mark classes go into a CSS selector unescaped (the page context has no CSS.escape types here).
      for (const chart of charts) expect(chart.markClass).toMatch(/^[a-z0-9_]+$/);
      for (const chart of charts) {
        expect.soft(chart.items, `${chart.id}: mark items`).toBe(expectedPoints[chart.id]);
        expect.soft(chart.declared, `${chart.id}: data-points`).toBe(expectedPoints[chart.id]);
        expect.soft(chart.items, `${chart.id}: has marks`).toBeGreaterThan(0);
        expect.soft(chart.width, `${chart.id}: visible`).toBeGreaterThan(200);
        expect.soft(chart.height, `${chart.id}: visible`).toBeGreaterThan(80);
        expect.soft(chart.accessibleName.length, `${chart.id}: SVG title`).toBeGreaterThan(10);
        expect.soft(chart.labelledBy, `${chart.id}: aria-labelledby`).toBe(`${chart.id}-svg-title ${chart.id}-svg-desc`);
        expect.soft(chart.caption.length, `${chart.id}: caption`).toBeGreaterThan(40);
      }
      // Wide tables scroll inside their wrapper; the page itself never scrolls sideways on a laptop screen.
      expect(await page.$eval('html', (element) => element.scrollWidth)).toBeLessThanOrEqual(1366);
      expect(leftThePage).toEqual([]);
      expect(consoleErrors).toEqual([]);

      const screenshotPath = join(outDir, 'report.png');
      await page.screenshot({ path: screenshotPath, fullPage: true });
      expect(readFileSync(screenshotPath).subarray(1, 4).toString()).toBe('PNG');
      process.stdout.write(`report page screenshot: ${screenshotPath}\n`);
    } finally {
      await browser.close();
    }
  });
});
