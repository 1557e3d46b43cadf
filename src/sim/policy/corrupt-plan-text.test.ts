import { describe, expect, test } from 'vitest';
import { Rng } from '../../core/rng.js';
import { parsePlan } from '../../plan/index.js';
import { OrchestratorSchema } from '../scenario/scenario-schema.js';
import { applicableMalformations, MALFORMATION_KINDS, writeMalformedPlanText } from './corrupt-plan-text.js';
import { baseCheckpoint, cloneCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES } from './policy-heads.js';
import { malformedRate, samplePlanText } from './sample-plan-text.js';
import { samplePlan } from './sample-plan.js';
import { FAKE_FAMILIES, SAMPLE_QUESTIONS, fakeAnswerDirectly } from './test-fixtures/fake-families.js';

const options = { families: FAKE_FAMILIES, answerDirectly: fakeAnswerDirectly };
const uniform = cloneCheckpoint(baseCheckpoint(), { name: 'uniform' });
for (const head of HEAD_NAMES) uniform.weights[head].fill(0);

describe('malformed plan text', () => {
  test('every corruption of every plan shape gives a parse or validation diagnostic', () => {
    const used = new Map<string, number>();
    for (let seed = 0; seed < 400; seed++) {
      const question = SAMPLE_QUESTIONS[seed % SAMPLE_QUESTIONS.length] as string;
      const { plan } = samplePlan(question, new Rng(seed), uniform, options);
      for (const kind of applicableMalformations(plan)) {
        for (const format of ['json', 'xml'] as const) {
          const text = writeMalformedPlanText(plan, format, kind, new Rng(seed * 31 + format.length));
          const parsed = parsePlan(text);
          if (parsed.ok) throw new Error(`${kind} (${format}) parsed cleanly:\n${text}`);
          used.set(kind, (used.get(kind) ?? 0) + 1);
        }
      }
    }
    expect([...used.keys()].sort()).toEqual([...MALFORMATION_KINDS].sort());
  });

  test('corruptions give the diagnostics they stand for', () => {
    const { plan } = samplePlan(SAMPLE_QUESTIONS[0], new Rng(1), uniform, { ...options, dom: 'high' });
    const codes = (kind: (typeof MALFORMATION_KINDS)[number], format: 'json' | 'xml') => {
      const parsed = parsePlan(writeMalformedPlanText(plan, format, kind, new Rng(2)));
      return parsed.ok ? [] : parsed.diagnostics.map((diagnostic) => diagnostic.code);
    };
    for (const format of ['json', 'xml'] as const) {
      expect(codes('unknown_agent', format)).toContain('unknown_agent');
      expect(codes('debate_without_roles', format)).toContain('missing_param');
      expect(codes('undeclared_reference', format)).toContain('dangling_edge');
      expect(codes('cycle', format)).toContain('cycle');
      expect(codes('two_sinks', format)).toContain('multiple_sinks');
      expect(codes('prose_only', format)).toEqual(['no_plan_found']);
    }
    expect(codes('missing_delimiter', 'xml')).toContain('xml_syntax');
  });

  test('direct answers are only corrupted in ways that need no nodes', () => {
    const kinds = applicableMalformations({ dom: 'low', nodes: [], edges: [], directAnswer: '7' });
    expect(kinds).toEqual(['truncated', 'missing_delimiter', 'prose_only']);
  });

  test('the measured malformed rate matches the checkpoint rate', () => {
    const orchestrator = OrchestratorSchema.parse({ malformedRate: { base: 0.2 }, defaultMalformedRate: 0.05 });
    expect(malformedRate(orchestrator, 'base')).toBe(0.2);
    expect(malformedRate(orchestrator, 'trained')).toBe(0.05);
    const draws = 4000;
    for (const [checkpoint, rate] of [[baseCheckpoint(), 0.2], [cloneCheckpoint(baseCheckpoint(), { name: 'trained' }), 0.05]] as const) {
      let malformed = 0;
      for (let seed = 0; seed < draws; seed++) {
        const question = SAMPLE_QUESTIONS[seed % SAMPLE_QUESTIONS.length] as string;
        const sampled = samplePlanText(question, new Rng(seed), checkpoint, { ...options, orchestrator });
        const parsed = parsePlan(sampled.text);
        expect(parsed.ok).toBe(sampled.malformation === undefined);
        if (!parsed.ok) malformed += 1;
      }
      // 4.5 standard errors of a proportion.
      expect(Math.abs(malformed / draws - rate)).toBeLessThan(4.5 * Math.sqrt((rate * (1 - rate)) / draws));
    }
  });
});
