import { describe, expect, test } from 'vitest';
import { Rng } from '../../core/rng.js';
import { parsePlan } from '../../plan/index.js';
import { OrchestratorSchema } from '../scenario/scenario-schema.js';
import { logProbOf } from './log-linear.js';
import { baseCheckpoint, cloneCheckpoint, type PolicyCheckpoint } from './policy-checkpoint.js';
import { HEAD_NAMES, POLICY_HEADS } from './policy-heads.js';
import { samplePlanText } from './sample-plan-text.js';
import { samplePlan } from './sample-plan.js';
import { FAKE_FAMILIES, SAMPLE_QUESTIONS, fakeAnswerDirectly } from './test-fixtures/fake-families.js';

const options = { families: FAKE_FAMILIES, answerDirectly: fakeAnswerDirectly };
const wellFormed = OrchestratorSchema.parse({ malformedRate: {}, defaultMalformedRate: 0, xmlShare: 0.5 });

/** A checkpoint with every head uniform, so every plan shape is drawn often. */
function uniformCheckpoint(): PolicyCheckpoint {
  const checkpoint = cloneCheckpoint(baseCheckpoint(), { name: 'uniform' });
  for (const head of HEAD_NAMES) checkpoint.weights[head].fill(0);
  return checkpoint;
}

describe('samplePlan', () => {
  test('the same seed gives the same plan, text and decisions; other seeds vary', () => {
    const question = SAMPLE_QUESTIONS[0];
    const draw = (seed: number) => samplePlanText(question, new Rng(seed), baseCheckpoint(), { ...options, orchestrator: wellFormed });
    const first = draw(11);
    const again = draw(11);
    expect(again.text).toBe(first.text);
    expect(again.plan).toEqual(first.plan);
    expect(again.decisions.map((decision) => [decision.head, decision.choice])).toEqual(first.decisions.map((decision) => [decision.head, decision.choice]));
    const texts = new Set(Array.from({ length: 40 }, (_, seed) => draw(seed).text));
    expect(texts.size).toBeGreaterThan(20);
  });

  test('valid outputs parse back to exactly the sampled plan, in both formats', () => {
    const checkpoint = uniformCheckpoint();
    const formats = new Set<string>();
    const agents = new Set<string>();
    for (const question of SAMPLE_QUESTIONS) {
      for (let seed = 0; seed < 60; seed++) {
        const sampled = samplePlanText(question, new Rng(seed), checkpoint, { ...options, orchestrator: wellFormed });
        const parsed = parsePlan(sampled.text);
        if (!parsed.ok) throw new Error(`seed ${seed} did not parse: ${JSON.stringify(parsed.diagnostics)}\n${sampled.text}`);
        expect(parsed.format).toBe(sampled.format);
        expect(parsed.plan).toEqual(sampled.plan);
        formats.add(sampled.format);
        for (const node of sampled.plan.nodes) agents.add(node.agent);
      }
    }
    expect([...formats].sort()).toEqual(['json', 'xml']);
    expect([...agents].sort()).toEqual(['cot', 'debate', 'reflexion', 'sc', 'search']);
  });

  test('the log-probability is that of the decisions, and only consulted heads are drawn', () => {
    const checkpoint = uniformCheckpoint();
    for (let seed = 0; seed < 200; seed++) {
      const question = SAMPLE_QUESTIONS[seed % SAMPLE_QUESTIONS.length] as string;
      const { decisions, logProb, plan } = samplePlan(question, new Rng(seed), checkpoint, options);
      expect(logProb).toBeCloseTo(logProbOf(question, decisions, checkpoint), 10);
      expect(logProb).toBeCloseTo(decisions.reduce((sum, decision) => sum - Math.log(POLICY_HEADS[decision.head].length), 0), 10);
      const heads = decisions.map((decision) => decision.head);
      expect(new Set(heads).size).toBe(heads.length);
      const agents = plan.nodes.map((node) => node.agent);
      expect(heads.includes('samples')).toBe(agents.includes('sc'));
      expect(heads.includes('roles')).toBe(agents.includes('debate'));
      expect(heads.includes('rounds')).toBe(agents.includes('debate') || agents.includes('reflexion'));
      expect(heads.includes('temperature')).toBe(plan.nodes.length > 0);
      expect(heads.includes('block')).toBe(plan.dom === 'low');
    }
  });

  test('high plans follow the decomposition: chains for steps, search per hop, a verifier for whole', () => {
    const checkpoint = uniformCheckpoint();
    const seen = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      const { decisions, plan } = samplePlan(SAMPLE_QUESTIONS[2], new Rng(seed), checkpoint, { ...options, dom: 'high' });
      expect(decisions.some((decision) => decision.head === 'dom')).toBe(false);
      const choice = (head: string) => decisions.find((decision) => decision.head === head);
      const granularity = POLICY_HEADS.granularity[choice('granularity')!.choice];
      const searchFirst = POLICY_HEADS.searchFirst[choice('searchFirst')!.choice] === 'yes';
      seen.add(`${granularity}/${searchFirst}`);
      if (granularity === 'steps') {
        expect(plan.nodes.map((node) => node.input)).toEqual(['Who founded Zentrix Labs?', 'Who is the mentor of ${A}?', 'In which city was ${B} born?']);
        expect(plan.edges).toEqual([{ from: 'A', to: 'B' }, { from: 'B', to: 'C' }]);
        expect(plan.answer).toBe('C');
        if (searchFirst) expect(plan.nodes.every((node) => node.agent === 'search')).toBe(true);
      } else if (granularity === 'components') {
        // This family has no independent parts: one node on the whole question.
        expect(plan.nodes.map((node) => node.input)).toEqual([SAMPLE_QUESTIONS[2]]);
        if (searchFirst) expect(plan.nodes[0]!.agent).toBe('search');
      } else {
        expect(plan.nodes).toHaveLength(2);
        expect(plan.nodes[1]!.input).toContain('${A}');
        expect(plan.answer).toBe('B');
        if (searchFirst) expect(plan.nodes[0]!.agent).toBe('search');
      }
    }
    expect(seen.size).toBe(6);
  });

  test('direct answers come from answerDirectly and low plans have at most one node', () => {
    let direct = 0;
    for (let seed = 0; seed < 100; seed++) {
      const { plan } = samplePlan(SAMPLE_QUESTIONS[0], new Rng(seed), uniformCheckpoint(), { ...options, dom: 'low' });
      expect(plan.dom).toBe('low');
      expect(plan.nodes.length).toBeLessThanOrEqual(1);
      if (plan.nodes.length === 0) {
        direct += 1;
        expect(plan.directAnswer).toMatch(/^\d+$/);
      } else expect(plan.nodes[0]!.input).toBe(SAMPLE_QUESTIONS[0]);
    }
    expect(direct).toBeGreaterThan(5);
  });
});
