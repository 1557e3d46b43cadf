import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { formatDemoSummary } from '../demo/index.js';
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

  test('shows the switching table per family and GRPO over seeds with its interval (issue 21)', async () => {
    const results = fixture((draft) => {
      draft.families[0]!.switching = [{ strategy: 'rm-templates-only', bestFixed: 'reflexion-3', tasks: 200, switched: 41, wins: 17, losses: 6, kinds: { 'components-sc': 30, 'steps-sc': 11 } }];
      const runs = (accuracies: number[]) => ({ accuracies, mean: accuracies.reduce((sum, value) => sum + value, 0) / accuracies.length, ci: [0.5, 0.6] as [number, number], trainingTokens: { orchestrator: 1e6, execution: 0, verification: 0, total: 1e6 } });
      draft.grpo.seeds = { seeds: [0, 1, 2], rm: runs([0.55, 0.56, 0.57]), execution: runs([0.535, 0.58, 0.56]) };
      draft.bon.templateReferences = { arith: 'reflexion-3', multihop: 'search' };
    });
    const html = await renderReportHtml(results, { outDir: directory });
    expect(html).toContain('Switching: on how many of a family');
    expect(html).toContain('another replaces it only when the model’s bootstrap heads agree it is better): arith reflexion-3, multihop search.');
    expect(html).toMatch(/<td[^>]*>rm-templates-only<\/td><td[^>]*>reflexion-3<\/td><td[^>]*>41 of 200 \(20\.5%\)<\/td><td[^>]*>17<\/td><td[^>]*>6<\/td><td[^>]*>components-sc 30, steps-sc 11<\/td>/);
    expect(html).toContain('mean over 3 seeds (0, 1, 2)');
    expect(html).toMatch(/<th[^>]*>execution<\/th><td[^>]*>55\.8%<\/td><td[^>]*>50\.0–60\.0%<\/td>/);
    expect(html).toContain('53.5%, 58.0%, 56.0%');
    const routed = await renderReportHtml(
      fixture((draft) => {
        draft.bon.templateRouter = {
          templates: 11,
          facts: 15,
          trainEpisodes: 1276,
          validationEpisodes: 198,
          l2: 1,
          validationLoss: [{ l2: 1, loss: 0.54 }],
          sampleSwitching: { margin: 1, suites: [{ suite: 'arith', tasks: 9, switches: 1, wins: 0, losses: 0 }] },
        };
      }),
      { outDir: directory },
    );
    expect(routed).toContain('chose their template by the reward model’s template router: for each of 11 templates');
    expect(routed).toContain('with L2 1 chosen by log loss on 198 graded template episodes of the validation split after fitting on the train split’s 1,276, then fitted on both');
    expect(routed).not.toContain('Reference template of rm+templates');
    // Where rm+templates let a sampled plan replace the router's pick: the validation record, per family.
    expect(routed).toContain('arith 1 switch on 9 tasks, 0 won, 0 lost: the router alone; any other suite: the router alone.');
  });

  test('names the fixed plan per family chosen after the fact and the one chosen on training data, and what the choice after the fact gains', async () => {
    const withBoth = fixture((draft) => {
      draft.bon.bestFixed = { overall: 'search', perSuite: { arith: 'reflexion-3', multihop: 'search' }, perSuiteFromTraining: { arith: 'reflexion-3', multihop: 'steps-search' } };
      draft.bon.paired['best-fixed-per-family-vs-train-best-fixed-per-family'] = { diff: 0.0325, ci: [-0.005, 0.0675] };
      draft.bon.paired['rm+templates-vs-train-best-fixed-per-family'] = { diff: 0.0825, ci: [0.035, 0.13] };
    });
    const html = await renderReportHtml(withBoth, { outDir: directory });
    expect(html).toContain('best-fixed-per-family runs on each family the template that did best on these test tasks (arith: reflexion-3, multihop: search)');
    expect(html).toContain('train-best-fixed-per-family runs the one that did best in the graded template episodes the reward model was trained on (arith: reflexion-3, multihop: steps-search)');
    expect(html).toMatch(/Choosing after the fact gains \+3\.3 points \(95% CI \[-0\.5, \+6\.8\]\) here; rm\+templates minus train-best-fixed-per-family is \+8\.3 points/);
    // A run without the training record (an older model file) has no such paragraph.
    const without = await renderReportHtml(fixture((draft) => (draft.bon.bestFixed = { overall: 'search', perSuite: { arith: 'reflexion-3', multihop: 'search' } })), { outDir: directory });
    expect(without).not.toContain('train-best-fixed-per-family runs');
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
  test('each hope is checked against the run; a verdict without an interval or on one seed is not given', () => {
    const list = findings(fixture());
    expect(list.map((finding) => finding.verdict)).toEqual(['held', 'held', 'held', 'not measured', 'held', 'held', 'too few to judge']);
    expect(list.map((finding) => finding.held)).toEqual([true, true, true, null, true, true, null]);
    expect(list.at(-1)!.measured).toBe(
      'rm gained +23.8 points (one seed), 81.2% of execution’s +29.3; rm minus 0.9 x execution: -2.6; execution spent 9.1x rm’s training tokens (0.56x once the tokens spent collecting the reward model’s training episodes are counted). Too few to judge: 1 seed; a GRPO verdict needs at least 3.',
    );
  });

  test('a strategy that was not run cannot be judged: not measured, not false', () => {
    const results = fixture((value) => {
      delete value.bon.strategies.oracle;
      delete value.bon.strategies.majority;
      delete value.bon.strategies.judge;
      delete value.bon.paired['rm-vs-single'];
      value.rm.baselines['length-only']!.difference.ci = [-0.01, 0.02];
    });
    const verdicts = Object.fromEntries(findings(results).map((finding) => [finding.hope.slice(0, 40), finding.verdict]));
    expect(verdicts).toEqual({
      'The reward model beats the plan-only bas': 'held',
      'The reward model beats the length-only b': 'did not hold',
      'At N = 8, rm beats single by at least 10': 'not measured',
      'rm closes at least 50% of the gap from s': 'not measured',
      'rm-topk-vote or rm-adaptive matches majo': 'not measured',
      'GRPO with rm reward reaches at least 90%': 'too few to judge',
    });
  });

  test('verdicts are decided by the interval, not the point estimate', () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    // Enough held-out data to judge: 300 valid-vs-valid pairs on 60 tasks.
    const large = { ...results, rm: { ...results.rm, heldOut: { ...results.rm.heldOut, tasks: 60 }, outcomePairs: { ...results.rm.outcomePairs!, validVsValid: { ...results.rm.outcomePairs!.validVsValid, total: 300 } } } };
    const labelFree = (ci: [number, number], diff: number) => findings({ ...large, labelFree: { ...large.labelFree!, difference: { diff, ci, pairs: 300, measuredOn: 'valid-vs-valid outcome pairs' } } }).find((finding) => finding.hope.startsWith('The label-free'))!;
    // Issue 21's example: -2.9 is within 3 points, but the interval reaches -5.3.
    expect(labelFree([-0.053, -0.004], -0.029).verdict).toBe('did not hold');
    expect(labelFree([-0.029, 0.01], -0.01).verdict).toBe('held');
    const structure = (diff: number, ci: [number, number]) =>
      findings({ ...large, rm: { ...large.rm, baselines: { 'structure-only': { ...large.rm.baselines['structure-only']!, difference: { diff, ci, measuredOn: 'valid-vs-valid outcome pairs' } } } } })[0]!;
    expect(structure(0.04, [0.01, 0.07]).verdict).toBe('held');
    expect(structure(0.04, [-0.001, 0.08]).verdict).toBe('did not hold');
    expect(structure(0.02, [0.005, 0.04]).verdict).toBe('did not hold');
  });

  test('a verdict on fewer than 50 held-out tasks or 200 pairs says too few to judge', () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    const structure = findings(results)[0]!;
    expect(structure.verdict).toBe('too few to judge');
    expect(structure.held).toBeNull();
    expect(structure.measured).toMatch(/Too few to judge: 96 pairs on 13 tasks; a verdict needs at least 200 pairs on 50 tasks\.$/);
    // 29 Best-of-N tasks, as the held-out set that once read +8.1 [+0.5, +17.0].
    const small = findings({ ...results, bon: { ...results.bon, tasks: 29 } }).find((finding) => finding.hope.startsWith('rm beats executing the first valid plan'))!;
    expect(small.verdict).toBe('too few to judge');
    expect(findings({ ...results, bon: { ...results.bon, tasks: 400 } }).find((finding) => finding.hope.startsWith('rm beats executing the first valid plan'))!.verdict).toBe('held');
  });

  test('on control, rm and rm+templates must stay within 2 points over the whole interval', () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    const control = (ci: [number, number]) => {
      const paired = { ...results.bon.paired, 'rm-vs-first-valid': { diff: (ci[0] + ci[1]) / 2, ci }, 'rm+templates-vs-best-fixed-per-family': { diff: 0, ci: [-0.01, 0.01] as [number, number] } };
      return findings({ ...results, scenario: 'control', bon: { ...results.bon, tasks: 400, paired } }).filter((finding) => finding.hope.startsWith('On the control scenario')).map((finding) => finding.verdict);
    };
    expect(control([-0.002, 0.018])).toEqual(['held', 'held']);
    expect(control([-0.002, 0.025])).toEqual(['did not hold', 'held']);
  });

  test('a scenario marked as a control is judged by the control targets, whatever its name', () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    const controlHopes = (overrides: Partial<typeof results>) => findings({ ...results, ...overrides }).filter((finding) => finding.hope.startsWith('On the control scenario')).length;
    expect(controlHopes({ scenario: 'heldout-control-world-3.json', scenarioControl: true })).toBeGreaterThan(0);
    expect(controlHopes({ scenario: 'control', scenarioControl: false })).toBe(0);
    // Results written before the mark: the scenario named control is one.
    expect(controlHopes({ scenario: 'control' })).toBe(controlHopes({ scenario: 'x', scenarioControl: true }));
    expect(controlHopes({ scenario: 'default' })).toBe(0);
  });

  test("on control, a router's saving is judged against the cheapest single fixed plan, the cheapest fixed plan per family and, at the same tokens, the best task-blind mix", () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    const row = (tokens: number) => ({ accuracy: 0.555, ci: [0.5, 0.6] as [number, number], tokens: { executionPlusVerification: tokens, total: tokens } });
    // The router matches best-fixed-per-family (8.4k) at 4.8k; the cheapest single fixed plan that matches costs 8.1k.
    const routerFrontier = (perFamilyTokens: number, pointMinusMix: [number, number] = [-0.0075, 0.005]) => ({
      n: 8,
      tasks: 400,
      strategy: 'rm-templates-only' as const,
      points: [{ ...row(4800), label: 'price=0.000005', objective: { kind: 'price' as const, pricePerToken: 5e-6 }, versusBestFixedPerFamily: { diff: 0, ci: [0, 0] as [number, number] }, dominatedBy: [] }],
      fixed: [{ ...row(8100), name: 'search' }],
      bestFixed: { ...row(8100), name: 'search' },
      bestFixedPerFamily: { ...row(8400), perSuite: { arith: 'components-cot', multihop: 'search' } },
      tokensAtBestFixedAccuracy: 4800,
      pointAtBestFixedAccuracy: 'price=0.000005',
      shareOfBestFixedPerFamilyTokens: 4800 / 8400,
      cheapestFixedAtBestFixedAccuracy: { name: 'search', executionPlusVerification: 8100, versusBestFixedPerFamily: { diff: 0, ci: [0, 0] as [number, number] } },
      cheapestFixedPerFamilyAtBestFixedAccuracy: { perSuite: { arith: 'direct', multihop: 'search' }, executionPlusVerification: perFamilyTokens, versusBestFixedPerFamily: { diff: 0, ci: [0, 0] as [number, number] } },
      // At 4.8k a task-blind mix sends a random 4% of multi-hop tasks to direct.
      taskBlindMixAtBestFixedAccuracy: { perSuite: { arith: { direct: 1 }, multihop: { search: 0.96, direct: 0.04 } }, accuracy: 0.5538, executionPlusVerification: 4800, pointMinusMix: { diff: (pointMinusMix[0] + pointMinusMix[1]) / 2, ci: pointMinusMix } },
      undominated: true,
    });
    const verdicts = (perFamilyTokens: number, pointMinusMix?: [number, number]) =>
      findings({ ...results, scenario: 'control', bon: { ...results.bon, routerFrontier: routerFrontier(perFamilyTokens, pointMinusMix) } })
        .filter((finding) => finding.hope.startsWith('On the control scenario, cost-aware template choice'))
        .map((finding) => [finding.hope.includes('task-blind') ? 'task-blind mix' : finding.hope.includes('per family') ? 'per family' : 'single', finding.verdict]);
    // Direct for arithmetic and search for multi-hop cost 4.6k: the router saves nothing beyond that fixed choice, nor beyond the mix.
    expect(verdicts(4600)).toEqual([['single', 'did not hold'], ['per family', 'held'], ['task-blind mix', 'held']]);
    // Were that fixed choice dearer than the router, the router would save beyond it.
    expect(verdicts(6000)).toEqual([['single', 'did not hold'], ['per family', 'did not hold'], ['task-blind mix', 'held']]);
    // More accurate than the mix at the same tokens, the whole interval above 0: a saving that reading the task made.
    expect(verdicts(4600, [0.0025, 0.02])).toEqual([['single', 'did not hold'], ['per family', 'held'], ['task-blind mix', 'did not hold']]);
    const mixFinding = findings({ ...results, scenario: 'control', bon: { ...results.bon, routerFrontier: routerFrontier(4600) } }).find((finding) => finding.hope.includes('task-blind'))!;
    expect(mixFinding.measured).toContain('(direct for arith; search on 96.0%, direct on 4.0% of multihop\'s tasks) reaches 55.4%');
  });

  test('the share of the gap closed and GRPO over seeds are judged by their intervals', () => {
    const results = parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
    // 100 tasks: single right on 20, oracle on 80, rm on 60 (two thirds of the gap) or 50 (half).
    const picks = (rmRight: number) =>
      Array.from({ length: 100 }, (_, task) => ({
        taskId: `t${task}`,
        suite: 'arith',
        strategies: { single: { correct: task < 20 }, rm: { correct: task < rmRight }, oracle: { correct: task < 80 } },
        fixed: {},
      }));
    const strategies = (rm: number) => ({ ...results.bon.strategies, single: { ...results.bon.strategies.single!, accuracy: 0.2 }, rm: { ...results.bon.strategies.rm!, accuracy: rm / 100 }, oracle: { ...results.bon.strategies.oracle!, accuracy: 0.8 } });
    const gap = (rmRight: number) => findings({ ...results, bon: { ...results.bon, tasks: 100, strategies: strategies(rmRight), picks: picks(rmRight) } }).find((finding) => finding.hope.startsWith('rm closes'))!;
    expect(gap(60).verdict).toBe('held');
    expect(gap(60).measured).toMatch(/^It closes 66\.7% of the gap \(20\.0% → 60\.0%, oracle 80\.0%\), 95% CI 5\d\.\d%–\d\d\.\d%\.$/);
    expect(gap(50).verdict).toBe('did not hold');
    const seeds = (rm: number[], execution: number[]) => {
      const over = (accuracies: number[]) => ({ accuracies, mean: 0, ci: [0, 1] as [number, number], trainingTokens: { orchestrator: 0, execution: 0, verification: 0, total: 0 } });
      const grpo = { ...results.grpo, baseAccuracy: 0.3, seeds: { seeds: [0, 1, 2], rm: { ...over(rm), trainingTokens: { orchestrator: 1e6, execution: 0, verification: 0, total: 1e6 } }, execution: { ...over(execution), trainingTokens: { orchestrator: 1e6, execution: 2e7, verification: 0, total: 2.1e7 } } } };
      return findings({ ...results, config: { ...results.config, sizes: { grpo: { evalTasks: 100 } } }, grpo }).at(-1)!;
    };
    expect(seeds([0.58, 0.57, 0.59], [0.55, 0.54, 0.56]).verdict).toBe('held');
    // The same mean gain, but one seed far off: the interval reaches below zero.
    expect(seeds([0.58, 0.47, 0.69], [0.55, 0.54, 0.56]).verdict).toBe('did not hold');
  });
});

describe('version 2 results (issue 13)', () => {
  const V2_TEXT = readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8');

  test('every issue-13 target is a finding, judged from the stored numbers', () => {
    const results = parseResults(V2_TEXT, 'v2 fixture');
    const list = findings(results);
    // A quick run: 13 held-out tasks and 30 Best-of-N tasks are too few for any verdict.
    expect(new Set(list.map((finding) => finding.verdict))).toEqual(new Set(['too few to judge', 'not measured']));
    const perFamily = list.find((finding) => finding.hope.includes('on every family'))!;
    expect(perFamily.measured).toMatch(/^arith [+-]\d+\.\d \[.*\]; multihop [+-]\d+\.\d \[.*\]\. Too few to judge: the smallest family has 15 tasks; a verdict needs at least 50 tasks\.$/);
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

describe('the report says what it measured, on how much (issue 24 item 7)', () => {
  const v2 = () => parseResults(readFileSync(new URL('./test-fixtures/results-v2.json', import.meta.url), 'utf8'), 'v2 fixture');
  const cards = (html: string) => [...html.matchAll(/<div class="card[^"]*"><div class="card-label">([^<]*)<\/div><div class="card-value">([^<]*)<\/div><div class="card-detail">([^<]*)<\/div>(?:<div class="card-too-few">([^<]*)<\/div>)?/g)].map((match) => ({ label: match[1]!, value: match[2]!, detail: match[3]!, tooFew: match[4] }));

  test('the headline card shows the figure the terminal shows: held-out valid-vs-valid outcome pairs, with their count', async () => {
    const results = v2();
    const [model] = cards(await renderReportHtml(results, { outDir: directory }));
    const validPairs = results.rm.outcomePairs!.validVsValid;
    expect(model!.label).toBe('Reward model, held-out valid-vs-valid outcome pairs');
    expect(model!.value).toBe(`${(validPairs.accuracy * 100).toFixed(1)}%`);
    // Not the accuracy over every held-out pair of every source, a different metric.
    expect(model!.value).not.toBe(`${(results.rm.pairAccuracy.overall.accuracy * 100).toFixed(1)}%`);
    expect(model!.detail).toContain(`on ${validPairs.total} pairs of ${results.rm.heldOut.tasks} held-out tasks`);
    const terminal = formatDemoSummary(results, { results: 'results.json', report: 'report.html', model: 'rm.safetensors' });
    expect(terminal).toMatch(new RegExp(`${results.rm.model} \\(every source\\) +${model!.value.replace('.', '\\.')} `));
  });

  test('version 1 results, which have no outcome-pair split, label the card as every source’s pairs', async () => {
    const [model] = cards(await renderReportHtml(fixture(), { outDir: directory }));
    expect(model!.label).toBe('Reward model, held-out pairs of every source');
  });

  test('a quick run says so, with its sample sizes, and marks the cards whose samples are too small to judge', async () => {
    const results = v2();
    const quick = await renderReportHtml({ ...results, config: { ...results.config, quick: true } }, { outDir: directory });
    expect(quick).toMatch(/<p class="banner" id="quick-run"><strong>Quick run<\/strong> \(orchrm demo --quick\): sizes chosen to finish in seconds, not to judge\. 13 held-out tasks \(96 valid-vs-valid outcome pairs\) and \d+ Best-of-N test tasks: /);
    const [model] = cards(quick);
    expect(model!.tooFew).toBe('too few to judge: 96 pairs on 13 tasks; a verdict needs at least 200 pairs on 50 tasks');
    expect(quick).toContain('Held-out valid-vs-valid outcome pairs: <strong>96</strong>');
    expect(cards(quick)[2]!.detail).toMatch(/^\d+ held-out tasks; from /);
    const full = await renderReportHtml({ ...results, config: { ...results.config, quick: false, sizes: { grpo: { evalTasks: 400 } } }, rm: { ...results.rm, heldOut: { ...results.rm.heldOut, tasks: 248 }, outcomePairs: { ...results.rm.outcomePairs!, validVsValid: { ...results.rm.outcomePairs!.validVsValid, total: 1949 } } }, bon: { ...results.bon, tasks: 400 } }, { outDir: directory });
    expect(full).not.toContain('id="quick-run"');
    expect(cards(full).map((card) => card.tooFew)).toEqual([undefined, undefined, undefined]);
  });

  test('pairs that read grades are not called label-free', async () => {
    const html = await renderReportHtml(v2(), { outDir: directory });
    expect(html).not.toContain('Pairs mined without labels');
    expect(html).toMatch(/<h2[^>]*>Pairs mined from the episodes<\/h2>/);
    expect(html).toContain('Outcome and efficiency pairs are decided by reading the grades; the label-free sources (checkpoint, process) never look at them');
  });
});
