#!/usr/bin/env node
/**
 * `npm run bench`: performance figures, printed as one JSON object on stdout. Kept apart from
 * the tests so that no unit test depends on the speed of the machine it runs on.
 */
import { benchCallThroughput } from './call-throughput.js';
import { benchCliStart } from './cli-start.js';
import { benchExecOverhead } from './exec-overhead.js';
import { benchPairsMining } from './pairs-mining.js';
import { benchPlanParseThroughput } from './plan-parse-throughput.js';
import { benchPlanParserStress } from './plan-parser-stress.js';
import { benchRewardServer } from './reward-server.js';
import { benchRmScoring } from './rm-scoring.js';
import { benchRmTraining } from './rm-training.js';
import { benchSimCollection } from './sim-collection.js';
import { benchTestSuite } from './test-suite.js';
import { benchViewer } from './viewer.js';

const suites: Record<string, () => Promise<unknown>> = {
  cliStart: async () => benchCliStart(),
  execOverhead: () => benchExecOverhead(),
  callThroughput: () => benchCallThroughput(),
  planParserStress: async () => benchPlanParserStress(),
  planParseThroughput: async () => benchPlanParseThroughput(),
  simCollection: () => benchSimCollection(),
  pairsMining: () => benchPairsMining(),
  rmTraining: () => benchRmTraining(),
  rmScoring: () => benchRmScoring(),
  rewardServer: () => benchRewardServer(),
  viewer: () => benchViewer(),
  // Last, and minutes long: the whole test suite.
  testSuite: async () => benchTestSuite(),
};

const only = process.argv.slice(2);
const results: Record<string, unknown> = { node: process.version, startedAt: new Date().toISOString() };
for (const [name, run] of Object.entries(suites)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  results[name] = await run();
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
