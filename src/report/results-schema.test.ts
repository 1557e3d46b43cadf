import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { InvalidInputError, UserError, zodIssues } from '../core/errors.js';
import { parseResults, readResults } from './read-results.js';
import { DemoResultsSchema } from './results-schema.js';

const FIXTURE_TEXT = readFileSync(new URL('./test-fixtures/results.json', import.meta.url), 'utf8');

/** The fixture, changed by `mutate` (a fresh copy each time). */
function fixture(mutate: (results: any) => void = () => {}): unknown {
  const results = JSON.parse(FIXTURE_TEXT);
  mutate(results);
  return results;
}

function issues(value: unknown) {
  const parsed = DemoResultsSchema.safeParse(value);
  if (parsed.success) throw new Error('expected the results to be invalid');
  return zodIssues(parsed.error);
}

describe('DemoResultsSchema', () => {
  test('the fixture is valid and keeps every section', () => {
    const results = DemoResultsSchema.parse(fixture());
    expect(Object.keys(results).sort()).toEqual(
      ['bon', 'calibration', 'config', 'durationMs', 'families', 'grpo', 'loop', 'pairs', 'rm', 'scenario', 'schemaVersion', 'seed', 'version'].sort(),
    );
    expect(results.bon.perN.map((table) => table.n)).toEqual([1, 2, 4, 8, 16]);
  });

  test('optional sections may be absent; unknown keys are dropped', () => {
    const results = DemoResultsSchema.parse(
      fixture((value) => {
        delete value.loop;
        delete value.calibration;
        value.somethingNewer = { x: 1 };
      }),
    );
    expect(results.loop).toBeUndefined();
    expect(results.calibration).toBeUndefined();
    expect('somethingNewer' in results).toBe(false);
  });

  test('errors name the field by its full path', () => {
    expect(
      issues(
        fixture((value) => {
          delete value.rm.pairAccuracy;
          value.bon.perN[2].strategies.rm.ci = [0.6, 0.4];
          value.grpo.execution.curve[1].accuracy = 1.5;
          value.pairs.process.count = -1;
          value.schemaVersion = 99;
        }),
      ),
    ).toMatchInlineSnapshot(`
      [
        {
          "message": "Invalid input",
          "path": "schemaVersion",
        },
        {
          "message": "Too small: expected number to be >=0",
          "path": "pairs.process.count",
        },
        {
          "message": "Invalid input: expected object, received undefined",
          "path": "rm.pairAccuracy",
        },
        {
          "message": "interval must be [low, high] with low <= high",
          "path": "bon.perN[2].strategies.rm.ci",
        },
        {
          "message": "Too big: expected number to be <=1",
          "path": "grpo.execution.curve[1].accuracy",
        },
      ]
    `);
  });

  test('a missing required section is named', () => {
    expect(issues(fixture((value) => delete value.grpo))).toMatchInlineSnapshot(`
      [
        {
          "message": "Invalid input: expected object, received undefined",
          "path": "grpo",
        },
      ]
    `);
  });
});

describe('parseResults and readResults', () => {
  test('an invalid file throws InvalidInputError naming the file and the field, with a hint', () => {
    const text = JSON.stringify(fixture((value) => (value.rm.calibration.bins[0].count = 'many')));
    expect(() => parseResults(text, 'out/results.json')).toThrowError(InvalidInputError);
    expect(() => parseResults(text, 'out/results.json')).toThrowError(/^out\/results\.json is invalid:\n {2}- rm\.calibration\.bins\[0\]\.count: .*\nIt should be the results\.json written by orchrm demo/);
  });

  test('text that is not JSON is a user error that says what the file should be', () => {
    expect(() => parseResults('{"scenario": ', 'out/results.json')).toThrowError(UserError);
    expect(() => parseResults('{"scenario": ', 'out/results.json')).toThrowError(/out\/results\.json is not valid JSON .*orchrm demo/);
  });

  test('a directory without results.json says how to make one', async () => {
    await expect(readResults('/nonexistent-orchrm-dir')).rejects.toThrowError('/nonexistent-orchrm-dir/results.json does not exist; run orchrm demo --out /nonexistent-orchrm-dir first');
  });
});

describe('bon.frontier and costModel (issue 22)', () => {
  // What summarizeFrontier writes, cut to one point and one fixed plan.
  const row = { accuracy: 0.6, ci: [0.55, 0.65], tokens: { executionPlusVerification: 12_000, total: 20_000 } };
  const frontier = {
    n: 8,
    tasks: 400,
    strategy: 'rm+templates',
    points: [{ ...row, label: 'price=0.00001', objective: { kind: 'price', pricePerToken: 1e-5 }, versusBestFixedPerFamily: { diff: -0.01, ci: [-0.04, 0.02] }, dominatedBy: [] }],
    fixed: [{ ...row, name: 'search' }],
    bestFixed: { ...row, name: 'search' },
    bestFixedPerFamily: { ...row, perSuite: { arith: 'reflexion-3', multihop: 'search' } },
    tokensAtBestFixedAccuracy: 12_000,
    pointAtBestFixedAccuracy: 'price=0.00001',
    shareOfBestFixedPerFamilyTokens: 1,
    cheapestFixedAtBestFixedAccuracy: null,
    undominated: true,
  };
  const costModel = {
    calibration: { method: 'platt', slope: 1, intercept: -3, train: { examples: 10, ece: 0.06 }, test: { examples: 5, ece: 0.08 } },
    cost: { trainExamples: 10, validationExamples: 2, meanAbsoluteError: 4000, meanTokens: 21_000 },
  };

  test('are optional, and kept when present', () => {
    expect(DemoResultsSchema.parse(fixture()).bon.frontier).toBeUndefined();
    const results = DemoResultsSchema.parse(fixture((value) => Object.assign(value, { costModel, bon: { ...value.bon, frontier } })));
    expect(results.bon.frontier).toEqual(frontier);
    expect(results.costModel).toEqual(costModel);
    // The template router's frontier is optional beside it, and names its strategy.
    const routerFrontier = { ...frontier, strategy: 'rm-templates-only' };
    expect(DemoResultsSchema.parse(fixture((value) => Object.assign(value, { bon: { ...value.bon, frontier, routerFrontier } }))).bon.routerFrontier).toEqual(routerFrontier);
    expect(issues(fixture((value) => Object.assign(value, { bon: { ...value.bon, routerFrontier: { ...frontier, strategy: 'rm' } } }))).map((issue) => issue.path)).toEqual(['bon.routerFrontier.strategy']);
    // The task-blind mix at the matching point's tokens is optional (results written before it), null when no point matched, and bounded.
    const taskBlindMixAtBestFixedAccuracy = { perSuite: { arith: { direct: 0.25, 'reflexion-3': 0.75 }, multihop: { search: 1 } }, accuracy: 0.55, executionPlusVerification: 12_000, pointMinusMix: { diff: 0.05, ci: [0.01, 0.09] } };
    expect(DemoResultsSchema.parse(fixture((value) => (value.bon.frontier = { ...frontier, taskBlindMixAtBestFixedAccuracy }))).bon.frontier?.taskBlindMixAtBestFixedAccuracy).toEqual(taskBlindMixAtBestFixedAccuracy);
    expect(DemoResultsSchema.parse(fixture((value) => (value.bon.frontier = { ...frontier, taskBlindMixAtBestFixedAccuracy: null }))).bon.frontier?.taskBlindMixAtBestFixedAccuracy).toBeNull();
    expect(issues(fixture((value) => (value.bon.frontier = { ...frontier, taskBlindMixAtBestFixedAccuracy: { ...taskBlindMixAtBestFixedAccuracy, perSuite: { arith: { direct: 1.5 } } } }))).map((issue) => issue.path)).toEqual(['bon.frontier.taskBlindMixAtBestFixedAccuracy.perSuite.arith.direct']);
    // A frontier that never matched best-fixed-per-family records null, not a number.
    expect(DemoResultsSchema.parse(fixture((value) => (value.bon.frontier = { ...frontier, tokensAtBestFixedAccuracy: null, pointAtBestFixedAccuracy: null, shareOfBestFixedPerFamilyTokens: null }))).bon.frontier?.tokensAtBestFixedAccuracy).toBeNull();
  });

  test('name the bad field of a malformed frontier', () => {
    expect(issues(fixture((value) => (value.bon.frontier = { ...frontier, tokensAtBestFixedAccuracy: -1 }))).map((issue) => issue.path)).toContain('bon.frontier.tokensAtBestFixedAccuracy');
    expect(issues(fixture((value) => (value.bon.frontier = { ...frontier, points: [{ ...frontier.points[0], objective: { kind: 'cheapest' } }] }))).map((issue) => issue.path)).toEqual(['bon.frontier.points[0].objective.kind']);
    expect(issues(fixture((value) => (value.costModel = { ...costModel, calibration: { ...costModel.calibration, test: { examples: 5, ece: 2 } } }))).map((issue) => issue.path)).toContain('costModel.calibration.test.ece');
  });
});
