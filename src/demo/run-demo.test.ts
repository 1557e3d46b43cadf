import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DemoResultsSchema } from '../report/index.js';
import { DEFAULT_TEMPLATE_MARGIN, loadRewardModel, switchesPaid } from '../rm/index.js';
import { formatDemoSummary } from './format-demo-summary.js';
import { runDemo } from './run-demo.js';

describe('runDemo --quick', () => {
  it('writes results.json, report.html and a usable reward model, with the seed and configuration recorded', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'orchrm-demo-'));
    const lines: string[] = [];
    const outcome = await runDemo({ outDir, quick: true, seed: 3, events: (event) => lines.push(event.message) });
    const results = DemoResultsSchema.parse(JSON.parse(readFileSync(outcome.resultsPath, 'utf8')));
    expect(results).toMatchObject({ scenario: 'default', seed: 3, config: { quick: true } });
    // The tasks come from the scenario's own seed (1 for default), not from --seed: both are recorded, and the summary says so.
    expect(results.scenarioSeed).toBe(1);
    expect(results.config.scenarioDefinition).toMatchObject({ name: 'default', seed: 1, families: { multihop: { famousShare: 0.4 } } });
    expect(formatDemoSummary(results, { results: 'r', report: 'p', model: 'm' }).split('\n')[0]).toMatch(/^orchrm demo: scenario default \(tasks drawn by its seed 1\), seed 3, \d+ s$/);
    for (const source of ['outcome', 'checkpoint', 'process', 'efficiency']) expect(results.pairs[source]?.count).toBeGreaterThan(0);
    for (const strategy of ['single', 'first-valid', 'rm', 'rm+templates', 'rm-topk-vote', 'rm-adaptive', 'majority', 'judge', 'plan-judge', 'oracle', 'best-fixed', 'best-fixed-per-family', 'fixed:search']) {
      expect(results.bon.strategies[strategy]).toBeDefined();
    }
    // The baselines a sceptic would name, each judged on the held-out valid-vs-valid outcome pairs.
    expect(Object.keys(results.rm.baselines)).toEqual(['structure-only', 'plan-only', 'length-only']);
    expect(results.rm.baselines['structure-only']?.difference.measuredOn).toBe('valid-vs-valid outcome pairs');
    expect(results.rm.outcomePairs?.validVsValid.total).toBeGreaterThan(0);
    // Label-free means no grade read while mining: only checkpoint and process pairs, reliability by agreement.
    expect(Object.keys(results.labelFree?.pairs ?? {}).every((source) => source === 'checkpoint' || source === 'process')).toBe(true);
    expect(results.labelFree?.reliability.some((entry) => entry.method === 'calibration')).toBe(false);
    expect(results.outcomeOnly?.pairs).toEqual({ outcome: expect.any(Number) });
    expect(results.families.map((row) => row.family).sort()).toEqual(['arith', 'multihop']);
    for (const row of results.families) expect(Object.keys(row.paired ?? {})).toEqual(expect.arrayContaining(['rm-vs-single', 'rm+templates-vs-best-fixed']));
    // Strategies that execute one plan spend a fraction of majority's execution tokens.
    expect(results.bon.strategies.rm?.tokens.execution).toBeLessThan((results.bon.strategies.majority?.tokens.execution ?? 0) / 4);
    expect(results.grpo.rm.trainingTokens.execution).toBe(0);
    expect(results.grpo.execution.trainingTokens.execution).toBeGreaterThan(0);
    // Issue 21: the templates ran on a share of the train tasks; every test task keeps each strategy's pick;
    // the switching table per family; GRPO over three seeds with an interval around their mean.
    expect(results.config.templateCollection).toMatchObject({ tasks: expect.any(Number), episodes: expect.any(Number) });
    // Not a control scenario, so the findings are the default targets.
    expect(results.scenarioControl).toBe(false);
    expect(results.bon.picks).toHaveLength(results.bon.tasks);
    // Issue 22: the model's cost head and calibration, and the frontier of cost-aware rm+templates.
    expect(results.costModel?.calibration.test.examples).toBeGreaterThan(0);
    expect(results.costModel?.cost.trainExamples).toBeGreaterThan(0);
    expect(results.bon.frontier?.points.map((point) => point.label)).toContain('price=0.00001');
    expect(results.bon.frontier?.fixed.length).toBe((results.config.templates as string[]).length);
    // The template router chose, so it has a frontier of its own: the same objectives, verification only the task's tokens.
    expect(results.bon.routerFrontier?.points.map((point) => point.label)).toEqual(results.bon.frontier?.points.map((point) => point.label));
    expect(results.bon.routerFrontier?.fixed).toEqual(results.bon.frontier?.fixed);
    // Where a point matches best-fixed-per-family, the best task-blind mix spends no more than it (or is the cheapest fixed plans').
    const { frontier } = results.bon;
    if (frontier?.tokensAtBestFixedAccuracy != null) {
      const mix = frontier.taskBlindMixAtBestFixedAccuracy!;
      const cheapestOnly = Object.values(mix.perSuite).every((shares) => Object.keys(shares).length === 1);
      if (!cheapestOnly) expect(mix.executionPlusVerification).toBeLessThanOrEqual(frontier.tokensAtBestFixedAccuracy + 0.1);
      expect(mix.pointMinusMix.ci[0]).toBeLessThanOrEqual(mix.pointMinusMix.diff);
    } else expect(frontier?.taskBlindMixAtBestFixedAccuracy).toBeNull();
    expect(results.bon.picks?.[0]?.strategies['rm+templates']?.pick).toMatchObject({ source: expect.stringMatching(/^(sample|template)$/), kind: expect.any(String), score: expect.any(Number) });
    expect(Object.keys(results.bon.picks?.[0]?.fixed ?? {}).length).toBe((results.config.templates as string[]).length);
    for (const row of results.families) expect(row.switching?.map((entry) => entry.strategy)).toEqual(['rm', 'rm+templates', 'rm-templates-only']);
    // The encoder was chosen among the candidates on the validation split's valid-vs-valid outcome pairs.
    expect(results.config.encoderChoice).toMatchObject({ by: 'validation valid-vs-valid accuracy', candidates: [{ encoder: 'shape,route,popularity,bits:18' }, { encoder: 'shape,cross,route,popularity,bits:18' }] });
    // rm+templates chose its templates by the model's template router, fitted on the template episodes of the train split; no reference applied.
    expect(results.bon.templateRouter).toMatchObject({ templates: (results.config.templates as string[]).length, l2: expect.any(Number) });
    expect(results.bon.templateRouter?.trainEpisodes).toBeGreaterThanOrEqual(10 * (results.config.templates as string[]).length);
    expect(results.bon.templateReferences).toBeUndefined();
    const summary = formatDemoSummary(results, { results: outcome.resultsPath, report: outcome.reportPath, model: outcome.modelPath });
    expect(summary).toContain("template choice of rm+templates and rm-templates-only: the reward model's template router");
    expect(summary).not.toContain('reference template of rm+templates');
    // The reading gain rm+templates weighs under a price: one row per family, stored with the router, and printed.
    const readingGain = results.bon.templateRouter?.readingGain;
    expect(readingGain?.suites.map((suite) => suite.suite).sort()).toEqual(results.families.map((row) => row.family).sort());
    expect(readingGain?.margin).toBe(DEFAULT_TEMPLATE_MARGIN);
    // Where the model's switches to samples did not pay on its validation tasks, rm+templates is the router alone: it picks only templates there.
    const switching = results.bon.templateRouter?.sampleSwitching;
    expect(switching?.margin).toBe(DEFAULT_TEMPLATE_MARGIN);
    expect(summary).toContain("rm+templates lets a sampled plan replace the router's pick only on a suite where such switches paid on the collection's validation tasks");
    const blocked = results.families.map((row) => row.family).filter((family) => !switching!.suites.some((entry) => entry.suite === family && switchesPaid(entry)));
    const blockedPicks = (results.bon.picks ?? []).filter((task) => blocked.includes(task.suite)).map((task) => task.strategies['rm+templates']?.pick?.source);
    expect(blockedPicks.length).toBeGreaterThan(0);
    expect(new Set(blockedPicks)).toEqual(new Set(['template']));
    // The reading gain is printed for the families where samples may replace the router's pick, and only where some may.
    const readFamilies = results.families.map((row) => row.family).filter((family) => !blocked.includes(family));
    if (readFamilies.length > 0) expect(summary).toMatch(new RegExp(`under a price it reads the sampled plans only where .* at price=0\\.000001 / price=0\\.00001 / price=0\\.0001: ${readFamilies[0]}`));
    else expect(summary).not.toContain('under a price it reads the sampled plans');
    const { seeds } = results.grpo;
    expect(seeds?.seeds).toEqual([3, 4, 5]);
    expect(seeds?.rm.accuracies[0]).toBe(results.grpo.rm.accuracy);
    expect(seeds!.execution.ci[0]).toBeLessThanOrEqual(seeds!.execution.mean);
    // Issue 22: the whole bill adds up from the stages' own counts.
    const { bill } = results;
    const stage = (name: string) => bill?.rewardModel.stages.find((entry) => entry.stage === name)?.tokens;
    expect(stage('strong checkpoint')).toEqual(results.config.strongCheckpoint && (results.config.strongCheckpoint as { trainingTokens: unknown }).trainingTokens);
    expect(stage('strong checkpoint')?.execution).toBeGreaterThan(0);
    expect(stage('strong checkpoint')?.orchestrator).toBeGreaterThan(0);
    expect(stage('collection')).toEqual(results.grpo.rmCollectionTokens);
    expect(stage('grpo')).toEqual(seeds?.rm.trainingTokens);
    expect(bill?.execution.stages.map((entry) => entry.tokens)).toEqual([seeds?.execution.trainingTokens]);
    expect(bill?.rewardModel.total.total).toBeCloseTo(stage('strong checkpoint')!.total + results.grpo.rmCollectionTokens.total + seeds!.rm.trainingTokens.total, 6);
    // GRPO's reward model read the curve's 50% share (quick): the curve's point at that share charges the same tasks' tokens.
    const grpoModel = results.grpo.rewardModel!;
    expect(grpoModel).toMatchObject({ share: 0.5, tasks: results.learningCurve?.points.find((point) => point.share === 0.5)?.tasks });
    expect(results.grpo.rmCollectionTokens.total).toBeCloseTo(results.learningCurve!.points.find((point) => point.share === 0.5)!.collectionTokens, 6);
    expect(grpoModel.wholeCollectionTokens.total).toBeGreaterThan(results.grpo.rmCollectionTokens.total);
    expect(bill?.leavesOut[0]).toMatch(/^the rest of the collection/);
    expect(bill?.savingPerRun).toBeCloseTo(seeds!.execution.trainingTokens.total - seeds!.rm.trainingTokens.total, 6);
    const page = readFileSync(outcome.reportPath, 'utf8');
    expect(page).toContain('<svg');
    expect(page).toContain('id="bill"');
    expect(page).toContain('id="curve"');
    expect(existsSync(join(outDir, 'demo.db'))).toBe(true);
    const model = await loadRewardModel(outcome.modelPath);
    expect(await model.score('How many apples?', ['{"dom":"low","nodes":[],"directAnswer":"3"}'])).toHaveLength(1);
    model.close();
    expect(lines.filter((line) => /^\d\/8 .*\(at \d+ s\)$/.test(line))).toHaveLength(8);
    // Issue 22: the learning curve, every point on the same held-out set, shares growing with their tokens.
    const curve = results.learningCurve!;
    expect(curve.points.map((point) => point.share)).toEqual([0.125, 0.25, 0.5, 1]);
    expect(curve.points.every((point) => point.collection === 'passive' && point.validVsValid.total === curve.heldOut.validPairs)).toBe(true);
    for (let index = 1; index < curve.points.length; index++) expect(curve.points[index]!.collectionTokens).toBeGreaterThan(curve.points[index - 1]!.collectionTokens);
  }, 300_000);
});
