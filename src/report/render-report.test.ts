import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { findings } from './findings.js';
import { parseResults } from './read-results.js';
import { renderReport, renderReportHtml } from './render-report.js';
import type { DemoResults } from './results-schema.js';

const FIXTURE_TEXT = readFileSync(new URL('./test-fixtures/results.json', import.meta.url), 'utf8');
const SIM_DOC = fileURLToPath(new URL('../../docs/sim.md', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'orchrm-report-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function fixture(mutate: (results: DemoResults) => void = () => {}): DemoResults {
  const results = parseResults(FIXTURE_TEXT, 'fixture');
  mutate(results);
  return results;
}

/** `data-chart` id -> `data-points` of every figure on the page. */
function figures(html: string): Record<string, number> {
  return Object.fromEntries([...html.matchAll(/<figure class="chart" data-chart="([^"]+)" data-points="(\d+)"/g)].map((match) => [match[1], Number(match[2])]));
}

describe('renderReportHtml', () => {
  test('one figure per chart, each declaring the data points of the fixture', async () => {
    const results = fixture();
    const html = await renderReportHtml(results, { outDir: directory });
    const strategyPoints = results.bon.perN.reduce((sum, table) => sum + Object.keys(table.strategies).length, 0);
    expect(figures(html)).toEqual({
      'bon-accuracy-tokens': strategyPoints,
      'grpo-accuracy-tokens': results.grpo.rm.curve.length - 1 + results.grpo.execution.curve.length - 1,
      'rm-pair-accuracy': 3 * (1 + Object.keys(results.rm.pairAccuracy.perSource).length),
      'rm-reliability': 10,
      'pair-counts': 4,
      'pair-agreement': 2,
      'loop-rounds': 2 * results.loop!.length,
    });
    expect(strategyPoints).toBe(40);
  });

  test('the page loads nothing: no scripts, no external resources, only in-page and relative links', async () => {
    const html = await renderReportHtml(fixture(), { outDir: directory });
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(href).toMatch(/^(#|\.\.?\/|[\w.-]+\/)/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`);
  });

  test('links docs/sim.md relative to the output directory', async () => {
    const outDir = join(directory, 'nested', 'out');
    const html = await renderReportHtml(fixture(), { outDir });
    const href = /<a href="([^"#]*sim\.md)">docs\/sim\.md<\/a>/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(href!.startsWith('/')).toBe(false);
    expect(resolve(outDir, decodeURIComponent(href!))).toBe(SIM_DOC);
    expect(existsSync(SIM_DOC)).toBe(true);
    expect(html).toContain(`href="${href}#10-what-this-environment-cannot-show"`);
  });

  test('every string from results.json is escaped', async () => {
    const hostile = '<script>alert("x")</script>&<img src=x onerror=alert(1)>';
    const results = fixture((value) => {
      value.scenario = hostile;
      value.config = { [hostile]: hostile };
      value.rm.model = hostile;
      value.pairs[hostile] = { count: 3, agreementWithOutcome: 0.5 };
      value.families[0]!.family = hostile;
      value.families[0]!.accuracy[hostile] = { accuracy: 0.5 };
      value.bon.strategies[hostile] = value.bon.strategies.rm!;
      value.bon.paired[hostile] = { diff: 0, ci: [0, 0] };
      value.rm.baselines['plan-only']!.verdict = hostile;
    });
    const html = await renderReportHtml(results, { outDir: directory, simDocHref: `x"${hostile}` });
    expect(html).not.toMatch(/<script|<img|onerror=alert\(1\)>/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;');
  });

  test('optional parts are left out or explained when absent', async () => {
    const results = fixture((value) => {
      delete value.loop;
      delete value.calibration;
      for (const stats of Object.values(value.pairs)) stats.agreementWithOutcome = null;
    });
    const html = await renderReportHtml(results, { outDir: directory });
    expect(Object.keys(figures(html))).toEqual(['bon-accuracy-tokens', 'grpo-accuracy-tokens', 'rm-pair-accuracy', 'rm-reliability', 'pair-counts']);
    expect(html).not.toContain('href="#loop"');
    expect(html).toContain('No label-free source has graded pairs with differing outcomes');
    expect(html).toContain('This run did not measure the scenario’s calibration');
  });

  test('the numbers are in tables too', async () => {
    const html = await renderReportHtml(fixture(), { outDir: directory });
    // rm at N = 8: accuracy, interval, mean total tokens per task.
    expect(html).toMatch(/<th scope="row">rm<\/th><td class="num strong">48\.5%<\/td><td class="num">41\.7–55\.4%<\/td>.*<td class="num strong">28,282<\/td>/);
    expect(html).toMatch(/<th scope="row" class="strong" title="[^"]*">rm total<\/th>/);
  });
});

describe('renderReport', () => {
  test('writes <outDir>/report.html, creating the directory', async () => {
    const outDir = join(directory, 'fresh', 'dir');
    const { path } = await renderReport(fixture(), { outDir });
    expect(path).toBe(join(outDir, 'report.html'));
    expect(readFileSync(path, 'utf8')).toBe(await renderReportHtml(fixture(), { outDir }));
  });
});

describe('findings', () => {
  test('each hope of issues 5-7 is checked against the run, held or not', () => {
    expect(findings(fixture()).map((finding) => finding.held)).toEqual([true, true, true, false, true, true, false]);
    const grpo = findings(fixture()).at(-1)!;
    expect(grpo.measured).toBe(
      'rm gained +23.8 points (81.2% of execution’s +29.3); execution spent 9.1x rm’s training tokens (0.56x once the tokens spent collecting the reward model’s training episodes are counted).',
    );
  });

  test('a strategy that was not run cannot be judged: null, not false', () => {
    const results = fixture((value) => {
      delete value.bon.strategies.oracle;
      delete value.bon.strategies.majority;
      delete value.bon.strategies.judge;
      delete value.bon.paired['rm-vs-single'];
      value.rm.baselines['length-only']!.beats = false;
    });
    const held = Object.fromEntries(findings(results).map((finding) => [finding.hope.slice(0, 40), finding.held]));
    expect(held).toEqual({
      'The reward model beats the plan-only bas': true,
      'The reward model beats the length-only b': false,
      'At N = 8, rm beats single by at least 10': null,
      'rm closes at least 50% of the gap from s': null,
      'rm-topk-vote or rm-adaptive matches majo': null,
      'GRPO with rm reward reaches at least 90%': false,
    });
  });
});

describe('version 2 results (issue 13)', () => {
  const V2_TEXT = readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8');

  test('every issue-13 target is a finding, judged from the stored numbers', () => {
    const results = parseResults(V2_TEXT, 'v2 fixture');
    const list = findings(results);
    const held = Object.fromEntries(list.map((finding) => [finding.hope.slice(0, 48), finding.held]));
    expect(held).toMatchObject({
      'The reward model beats the structure-only baseli': false,
      'Training on every source is not worse than train': true,
      'The label-free model (no grade read while mining': true,
      'With the template pool, rm+templates is at least': false,
      'rm beats executing the first valid plan (its gai': true,
    });
    const perFamily = list.find((finding) => finding.hope.includes('on every family'))!;
    expect(perFamily.measured).toMatch(/^arith [+-]\d+\.\d \[.*\]; multihop [+-]\d+\.\d \[.*\]\.$/);
    // On the control scenario the hope about first-valid is the ±2-point one.
    const control = findings({ ...results, scenario: 'control' }).find((finding) => finding.hope.includes('first valid plan'))!;
    expect(control.hope).toMatch(/within 2 points/);
  });

  test('the page shows the outcome-pair split, the sources and the per-family differences', async () => {
    const html = await renderReportHtml(parseResults(V2_TEXT, 'v2 fixture'), { outDir: directory });
    expect(html).toContain('id="sources"');
    expect(html).toContain('Valid vs valid');
    expect(html).toContain('structure-only');
    expect(html).toContain('label-free pairs only');
    expect(html).toContain('rm minus single');
    expect(html).toContain('best-fixed-per-family');
  });
});
