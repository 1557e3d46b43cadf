import { describe, expect, test } from 'vitest';
import { Rng } from '../../core/rng.js';
import { parsePlan } from '../../plan/index.js';
import { createArithFamily } from '../families/arith/arith-family.js';
import type { SimFamily } from '../families/family.js';
import { createMultihopFamily } from '../families/multihop/index.js';
import { ArithFamilySchema, MultihopFamilySchema, OrchestratorSchema } from '../scenario/scenario-schema.js';
import { baseCheckpoint, cloneCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES } from './policy-heads.js';
import { samplePlanText } from './sample-plan-text.js';
import { fakeAnswerDirectly } from './test-fixtures/fake-families.js';

const families: SimFamily[] = [
  createArithFamily(ArithFamilySchema.parse({ depth: [2, 6], parallel: [1, 3] })),
  createMultihopFamily(MultihopFamilySchema.parse({ hops: [2, 4], entities: 60 }), 3),
];
const uniform = cloneCheckpoint(baseCheckpoint(), { name: 'uniform' });
for (const head of HEAD_NAMES) uniform.weights[head].fill(0);
const orchestrator = OrchestratorSchema.parse({ malformedRate: {}, defaultMalformedRate: 0, xmlShare: 0.5 });

describe.each(families)('the policy over the real $name family', (family) => {
  test('plans built from its decompositions are valid and parse back unchanged', () => {
    const tasks = family.generate({ count: 30, rng: new Rng(5), idPrefix: 'policy' });
    let largest = 0;
    for (const task of tasks) {
      for (let seed = 0; seed < 8; seed++) {
        const sampled = samplePlanText(task.question, new Rng(seed), uniform, { families, answerDirectly: fakeAnswerDirectly, orchestrator, dom: 'high' });
        const parsed = parsePlan(sampled.text);
        if (!parsed.ok) throw new Error(`${JSON.stringify(parsed.diagnostics)}\n${sampled.text}`);
        expect(parsed.plan).toEqual(sampled.plan);
        largest = Math.max(largest, sampled.plan.nodes.length);
      }
    }
    expect(largest).toBeGreaterThanOrEqual(3);
  });
});
