import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { switchesPaid } from '../../rm/index.js';
import { BUILT_CLI, ensureBuilt } from '../test-fixtures/built-package.js';

const run = promisify(execFile);
beforeAll(ensureBuilt, 300_000);

/**
 * The template router from the command line (issue 21): collect with templates on a share of the
 * tasks, mine, train (the router is fitted and reported), and bon chooses its templates by it,
 * or, trained with --no-template-router, by the reference rule; bon says which.
 */
it("collect --template-share, rm train and bon route templates by the model (and --frontier draws the router alone's frontier), and --no-template-router falls back to the reference rule", async () => {
  const work = mkdtempSync(join(tmpdir(), 'orchrm-router-flow-'));
  const cli = async (...args: string[]) => (await run(process.execPath, [BUILT_CLI, ...args], { cwd: work, maxBuffer: 16 * 1024 * 1024 })).stdout;
  await cli('collect', '--scenario', 'default', '--orchestrator', 'sim:base', '--count', '60', '--plans-per-task', '2', '--template-share', '0.5', '--seed', '1', '--db', 'runs.db', '--json');
  await cli('pairs', 'mine', '--db', 'runs.db', '--seed', '1', '--json');
  const trained = JSON.parse(await cli('rm', 'train', '--db', 'runs.db', '--epochs', '2', '--ensemble', '0', '--no-tune', '--out', 'rm.safetensors', '--json')) as {
    templateRouter?: { templates: number; trainEpisodes: number; readingGain?: { suites: { suite: string }[] }; sampleSwitching?: { margin: number; suites: { suite: string; tasks: number; wins: number; losses: number }[] } };
  };
  expect(trained.templateRouter?.templates).toBe(11);
  expect(trained.templateRouter?.trainEpisodes).toBeGreaterThanOrEqual(110);
  // With a cost head and calibration the router carries the reading gain rm+templates weighs under a price, and the text says so.
  expect(trained.templateRouter?.readingGain?.suites.map((suite) => suite.suite).sort()).toEqual(['arith', 'multihop']);
  // And the record of its switches to samples on the validation tasks, which says where rm+templates may take a sample.
  expect(trained.templateRouter?.sampleSwitching?.margin).toBe(1);
  expect(trained.templateRouter?.sampleSwitching?.suites.every((suite) => suite.tasks > 0)).toBe(true);
  const trainText = await cli('rm', 'train', '--db', 'runs.db', '--epochs', '2', '--ensemble', '0', '--no-tune', '--out', 'text.safetensors');
  expect(trainText).toMatch(/reading gain: on \d+ (arith|multihop), \d+ (arith|multihop) training tasks/);
  expect(trainText).toMatch(/rm\+templates lets a sampled plan replace the router's pick only on a suite where such switches paid[^\n]*: (arith|multihop) \d+ switch/);
  const plain = JSON.parse(await cli('rm', 'train', '--db', 'runs.db', '--epochs', '2', '--ensemble', '0', '--no-tune', '--no-template-router', '--out', 'plain.safetensors', '--json')) as { templateRouter?: unknown };
  expect(plain.templateRouter).toBeUndefined();
  const bon = (model: string) => cli('bon', '--scenario', 'default', '--split', 'test', '--count', '4', '--rm', model, '--n', '2', '--pool', 'sampled+templates', '--strategies', 'rm-templates-only', '--db', 'bon.db');
  const routed = await bon('rm.safetensors');
  expect(routed).toContain("template choice: the reward model's template router (it knows every template of the pool and every suite of the tasks)");
  // Only a run of rm+templates says where it lets samples replace the router's pick.
  expect(routed).not.toContain('rm+templates lets a sampled plan');
  // The fixed plan per family the training data chose runs beside the one chosen on the test tasks.
  expect(routed).toMatch(/train-best-fixed-per-family \((arith|multihop): [\w-]+, (arith|multihop): [\w-]+\)/);
  expect(routed).toContain('best-fixed-per-family-vs-train-best-fixed-per-family');
  const unrouted = await bon('plain.safetensors');
  expect(unrouted).toMatch(/template choice: the model's scores against each suite's reference template \((arith|multihop) [\w-]+/);
  expect(unrouted).not.toContain('train-best-fixed-per-family');
  // --frontier: where the router chooses and its record prices the templates, rm-templates-only gets a frontier of its own beside rm+templates'.
  type Frontier = { strategy: string; points: { label: string; tokens: { executionPlusVerification: number } }[] };
  const frontierOf = async (model: string) =>
    JSON.parse(await cli('bon', '--scenario', 'default', '--split', 'test', '--count', '4', '--rm', model, '--n', '2', '--pool', 'sampled+templates', '--frontier', '--db', 'frontier.db', '--json')) as { frontier?: Frontier; routerFrontier?: Frontier };
  const withRouter = await frontierOf('rm.safetensors');
  expect(withRouter.frontier?.strategy).toBe('rm+templates');
  expect(withRouter.routerFrontier?.strategy).toBe('rm-templates-only');
  expect(withRouter.routerFrontier?.points.map((point) => point.label)).toEqual(withRouter.frontier?.points.map((point) => point.label));
  // Its text says, under rm+templates' frontier, what reading the samples is expected to add.
  const frontierText = await cli('bon', '--scenario', 'default', '--split', 'test', '--count', '4', '--rm', 'rm.safetensors', '--n', '2', '--pool', 'sampled+templates', '--frontier', '--db', 'frontier-text.db');
  // ... on the families where samples may replace the router's pick, if any.
  expect(frontierText).toContain("rm+templates lets a sampled plan replace the router's pick only on a suite where such switches paid");
  const reads = trained.templateRouter?.sampleSwitching?.suites.some((suite) => switchesPaid(suite));
  if (reads) expect(frontierText).toMatch(/rm\+templates cost-accuracy frontier[^]*under a price it reads the sampled plans only where[^]*at price=0\.000001 \/ price=0\.00001 \/ price=0\.0001: /);
  else expect(frontierText).not.toContain('under a price it reads the sampled plans');
  const withoutRouter = await frontierOf('plain.safetensors');
  expect(withoutRouter.frontier?.strategy).toBe('rm+templates');
  expect(withoutRouter.routerFrontier).toBeUndefined();
}, 240_000);
