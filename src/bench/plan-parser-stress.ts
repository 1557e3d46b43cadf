import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parsePlan } from '../plan/index.js';

const ONE_MB = 1 << 20;

/** Inputs of about 1 MB built to stress a parser: deep nesting, unbalanced braces and tags, huge strings. */
function hostileInputs(): Record<string, string> {
  const node = '{"id":"A","agent":"cot","input":"x","params":{}},';
  return {
    nestedBraces: '{'.repeat(ONE_MB),
    nestedTags: '<agent>'.repeat(ONE_MB / 7),
    unbalancedEdges: `<edge>${'<from>A</from>'.repeat(ONE_MB / 14)}</edge>`,
    manyNodes: `{"dom":"high","nodes":[${node.repeat(ONE_MB / node.length)}],"edges":[]}`,
    hugeInput: `{"dom":"low","nodes":[{"id":"A","agent":"cot","input":"${'a'.repeat(ONE_MB)}"}],"edges":[],"answer":"A"}`,
    proseWithBraces: 'Here is { some prose } with braces and ${refs} and <tags> '.repeat(ONE_MB / 58),
    invalidUtf8: Buffer.from(Array.from({ length: ONE_MB }, (_, index) => (index * 131) % 256)).toString('utf8'),
  };
}

/** The MAS-Orchestra conformance corpus's plan texts (real plans, 0.1-5 KB), when the sources are there. */
function corpusTexts(): string[] {
  const directory = new URL('../../src/plan/test-fixtures/conformance/', import.meta.url);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(new URL(name, directory), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { text: string }).text);
}

/** Plans parsed per second over the conformance corpus, best of `rounds` passes. */
function corpusThroughput(rounds = 5): { plans: number; plansPerSecond: number } | undefined {
  const texts = corpusTexts();
  if (texts.length === 0) return undefined;
  let bestMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const startedAt = performance.now();
    for (const text of texts) parsePlan(text);
    bestMs = Math.min(bestMs, performance.now() - startedAt);
  }
  return { plans: texts.length, plansPerSecond: Math.round((texts.length / bestMs) * 1000) };
}

/**
 * Issue 9's parser stress: the time to parse each ~1 MB hostile input (target: well under
 * 100 ms, i.e. linear in size), and `runs` random and mutated plan texts from fast-check, none
 * of which may throw. Also the throughput on real plans (issue 14's conformance corpus).
 */
export function benchPlanParserStress(runs = 20_000) {
  const timings: Record<string, number> = {};
  for (const [name, text] of Object.entries(hostileInputs())) {
    const startedAt = performance.now();
    const result = parsePlan(text);
    timings[name] = Math.round((performance.now() - startedAt) * 10) / 10;
    if (typeof result.ok !== 'boolean') throw new Error(`parsePlan returned no result for ${name}`);
  }
  const plan = '{"dom":"high","nodes":[{"id":"A","agent":"cot","input":""},{"id":"B","agent":"sc","input":"${A}","params":{"samples":3}}],"edges":[{"from":"A","to":"B"}],"answer":"B"}';
  const mutated = fc.tuple(fc.nat({ max: plan.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 20 })).map(([at, cut, insert]) => plan.slice(0, at) + insert + plan.slice(at + cut));
  let thrown = 0;
  const startedAt = performance.now();
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 2_000 }), mutated), (text) => {
      try {
        parsePlan(text);
      } catch {
        thrown++;
      }
      return true;
    }),
    { numRuns: runs, seed: 42 },
  );
  const fuzzMs = Math.round(performance.now() - startedAt);
  return { oneMegabyteParseMs: timings, fuzzCases: runs, fuzzThrown: thrown, fuzzMs, fuzzPlansPerSecond: Math.round((runs / fuzzMs) * 1000), corpus: corpusThroughput() };
}
