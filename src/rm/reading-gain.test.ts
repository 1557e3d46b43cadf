import { describe, expect, it } from 'vitest';
import type { PlanEstimate } from '../core/index.js';
import type { PlanOutcome } from './cost-head.js';
import { DEFAULT_TEMPLATE_MARGIN, estimateReadingGain, READING_GAIN_PRICES } from './reading-gain.js';
import { TemplateRouterDataSchema, trainTemplateRouter } from './template-router.js';

/** A router over one suite: template a right on 30 of 40 tasks at 1,000 tokens, b on 10 at 100. */
function router() {
  const outcomes: PlanOutcome[] = [];
  for (let index = 0; index < 40; index++) {
    for (const [template, tokens, correct] of [['a', 1000, index < 30], ['b', 100, index < 10]] as const) {
      outcomes.push({ taskId: `r${index}`, question: `Q${index}?`, suite: 's', planText: template, executionTokens: tokens, template, correct, split: 'train' });
    }
  }
  return trainTemplateRouter(outcomes)!.router;
}

/** The model's view: sample `good` beats template a (score 5 against 1), `bad` does not; `good` is likely right at 2,000 tokens. */
function model(spread = 0.1, canEstimate = true) {
  const scoreOf = (text: string) => ({ good: 5, bad: 0, a: 1, b: 0.5 })[text] ?? 0;
  const estimateOf = (text: string): PlanEstimate => (text === 'good' ? { successProbability: 0.95, executionTokens: 2000 } : { successProbability: 0.1, executionTokens: 500 });
  return {
    canEstimate,
    score: async (_task: string, texts: readonly unknown[]) => texts.map((text) => scoreOf(text as string)),
    // Three heads around the score; only `good` varies, by `spread`.
    scoreMembers: async (_task: string, texts: readonly unknown[]) => texts.map((text) => (text === 'good' ? [5 - spread, 5, 5 + spread] : [scoreOf(text as string), scoreOf(text as string), scoreOf(text as string)])),
    estimate: async (_task: string, texts: readonly unknown[]) => texts.map((text) => estimateOf(text as string)),
  };
}

/** Ten train tasks that ran both templates: the first five also sampled `good` and `bad`, the others `bad` alone. */
function collection(): PlanOutcome[] {
  const outcomes: PlanOutcome[] = [];
  for (let index = 0; index < 10; index++) {
    const add = (planText: string, template?: string) => outcomes.push({ taskId: `t${index}`, question: `Q${index}?`, suite: 's', planText, executionTokens: 0, split: 'train', ...(template !== undefined && { template }) });
    add('a', 'a');
    add('b', 'b');
    if (index < 5) add('good');
    add('bad');
  }
  // Not counted: a task where the router's pick (a) did not run, and a test-split task.
  outcomes.push({ taskId: 'no-bar', question: 'Q?', suite: 's', planText: 'b', template: 'b', executionTokens: 0, split: 'train' }, { taskId: 'no-bar', question: 'Q?', suite: 's', planText: 'good', executionTokens: 0, split: 'train' });
  outcomes.push({ taskId: 'test', question: 'Q?', suite: 's', planText: 'a', template: 'a', executionTokens: 0, split: 'test' }, { taskId: 'test', question: 'Q?', suite: 's', planText: 'good', executionTokens: 0, split: 'test' });
  return outcomes;
}

describe('the reading gain', () => {
  it("is the mean over the suite's collection tasks of what a passing sample adds to the router's priced pick", async () => {
    const fitted = router();
    const gain = (await estimateReadingGain(model(), fitted, collection()))!;
    expect(gain.margin).toBe(DEFAULT_TEMPLATE_MARGIN);
    expect(gain.prices).toEqual(READING_GAIN_PRICES);
    expect(gain.suites).toHaveLength(1);
    const [suite] = gain.suites;
    expect(suite).toMatchObject({ suite: 's', tasks: 10, samplesPerTask: 1.5 });
    // Half the tasks have `good`: there it adds its value over the router's best priced template, where that is positive.
    const [pa, pb] = fitted.probabilities('Q0?', 's', ['a', 'b']) as number[];
    const [ca, cb] = fitted.executionTokens('Q0?', 's', ['a', 'b']) as number[];
    READING_GAIN_PRICES.forEach((price, index) => {
      const routed = Math.max(pa! - price * ca!, pb! - price * cb!);
      expect(suite!.gains[index]).toBeCloseTo(0.5 * Math.max(0, 0.95 - price * 2000 - routed), 5);
    });
    // Cheap reading pays at low prices; at 1e-3 per token `good` (2,000 tokens) is worth less than b.
    expect(suite!.gains[0]).toBeGreaterThan(0.05);
    expect(suite!.gains.at(-1)).toBe(0);
    // The file's schema takes it, and the router answers from it.
    const withGain = fitted.withReadingGain(gain);
    expect(TemplateRouterDataSchema.safeParse(JSON.parse(JSON.stringify(withGain.data))).success).toBe(true);
    expect(withGain.readingGain('s', READING_GAIN_PRICES[4]!, DEFAULT_TEMPLATE_MARGIN)).toBeCloseTo(suite!.gains[4]!, 10);
  });

  it('counts only samples that beat the router pick by the margin, and needs a model that can estimate', async () => {
    // Heads that disagree by 10 on `good` keep it below the bar: reading adds nothing.
    const unsure = (await estimateReadingGain(model(10), router(), collection()))!;
    expect(unsure.suites[0]!.gains.every((gain) => gain === 0)).toBe(true);
    // With margin 0 the same sample passes again.
    const bold = (await estimateReadingGain(model(10), router(), collection(), 0))!;
    expect(bold.margin).toBe(0);
    expect(bold.suites[0]!.gains[0]).toBeGreaterThan(0.05);
    expect(await estimateReadingGain(model(0.1, false), router(), collection())).toBeUndefined();
    // No collection task with both a sample and the router's pick: no estimate.
    expect(await estimateReadingGain(model(), router(), collection().filter((outcome) => outcome.template !== 'a'))).toBeUndefined();
  });

  it('is read in log price between grid points, flat beyond them, and only at the margin it was made for', () => {
    const fitted = router().withReadingGain({ margin: 1, prices: [1e-6, 1e-4], suites: [{ suite: 's', tasks: 3, samplesPerTask: 8, gains: [0.1, 0] }] });
    expect(fitted.readingGain('s', 1e-5, 1)).toBeCloseTo(0.05, 10);
    expect(fitted.readingGain('s', 0, 1)).toBe(0.1);
    expect(fitted.readingGain('s', 1e-3, 1)).toBe(0);
    expect(fitted.readingGain('s', 1e-5, 2)).toBeUndefined();
    expect(fitted.readingGain('other', 1e-5, 1)).toBeUndefined();
    expect(router().readingGain('s', 1e-5, 1)).toBeUndefined();
    const data = fitted.data;
    expect(TemplateRouterDataSchema.safeParse({ ...data, readingGain: { ...data.readingGain!, prices: [1e-4, 1e-6] } }).success).toBe(false);
    expect(TemplateRouterDataSchema.safeParse({ ...data, readingGain: { ...data.readingGain!, suites: [{ suite: 's', tasks: 3, samplesPerTask: 8, gains: [0.1] }] } }).success).toBe(false);
    expect(TemplateRouterDataSchema.safeParse({ ...data, readingGain: { ...data.readingGain!, suites: [{ suite: 's', tasks: 3, samplesPerTask: 8, gains: [1.5, 0] }] } }).success).toBe(false);
  });
});
