import { describe, expect, it } from 'vitest';
import type { PlanOutcome } from './cost-head.js';
import { replaySampleSwitches } from './sample-switching.js';
import { SampleSwitchingSchema, switchesPaid, TemplateRouterDataSchema, trainTemplateRouter } from './template-router.js';

/** A router over suites `s` and `u`: template a right on 30 of 40 tasks, b on 10, so a is its pick everywhere. */
function router() {
  const outcomes: PlanOutcome[] = [];
  for (const suite of ['s', 'u']) {
    for (let index = 0; index < 40; index++) {
      for (const [template, correct] of [['a', index < 30], ['b', index < 10]] as const) {
        outcomes.push({ taskId: `${suite}${index}`, question: `Q${index}?`, suite, planText: template, executionTokens: 100, template, correct, split: 'train' });
      }
    }
  }
  return trainTemplateRouter(outcomes)!.router;
}

/** Scores: `good` and `lucky` beat both templates, `mid` only a (b scores above a, so b is the bar where it ran), `bad` neither; heads differ by `spread` on the samples. */
function model(spread = 0.1) {
  const scoreOf = (text: string) => ({ good: 5, lucky: 4, mid: 1.5, bad: 0, a: 1, b: 2 })[text] ?? 0;
  return {
    score: async (_task: string, texts: readonly unknown[]) => texts.map((text) => scoreOf(text as string)),
    scoreMembers: async (_task: string, texts: readonly unknown[]) =>
      texts.map((text) => {
        const score = scoreOf(text as string);
        return ['a', 'b'].includes(text as string) ? [score, score, score] : [score - spread, score, score + spread];
      }),
  };
}

function outcome(taskId: string, suite: string, planText: string, correct: boolean | undefined, split: PlanOutcome['split'] = 'validation', template?: string): PlanOutcome {
  return { taskId, question: `Q ${taskId}?`, suite, planText, executionTokens: 100, split, ...(correct !== undefined && { correct }), ...(template !== undefined && { template }) };
}

describe('replaying rm+templates on the validation tasks', () => {
  it("counts, per suite, the switches to the sample with the widest lead and whether they beat the router's pick", async () => {
    const outcomes = [
      // s1: `good` (right) replaces a (wrong): a win. `lucky` passes too but leads by less.
      outcome('s1', 's', 'a', false, 'validation', 'a'),
      outcome('s1', 's', 'b', true, 'validation', 'b'),
      outcome('s1', 's', 'lucky', false),
      outcome('s1', 's', 'good', true),
      // s2: `good` (wrong) replaces a (right): a loss.
      outcome('s2', 's', 'a', true, 'validation', 'a'),
      outcome('s2', 's', 'good', false),
      // s3: only `bad`, below the bar: no switch.
      outcome('s3', 's', 'a', true, 'validation', 'a'),
      outcome('s3', 's', 'bad', false),
      // s5: `mid` beats the router's pick a but not the best-scored template b: no switch.
      outcome('s5', 's', 'a', false, 'validation', 'a'),
      outcome('s5', 's', 'b', false, 'validation', 'b'),
      outcome('s5', 's', 'mid', true),
      // s4: both right: a switch neither won nor lost.
      outcome('s4', 's', 'a', true, 'validation', 'a'),
      outcome('s4', 's', 'good', true),
      // u1: a switch that won on the other suite.
      outcome('u1', 'u', 'a', false, 'validation', 'a'),
      outcome('u1', 'u', 'good', true),
      // Not counted: the router's pick did not run; no sample ran; the train and test splits; an ungraded episode.
      outcome('x1', 's', 'b', false, 'validation', 'b'),
      outcome('x1', 's', 'good', true),
      outcome('x2', 's', 'a', false, 'validation', 'a'),
      outcome('x3', 's', 'a', false, 'train', 'a'),
      outcome('x3', 's', 'good', true, 'train'),
      outcome('x4', 's', 'a', false, 'test', 'a'),
      outcome('x4', 's', 'good', true, 'test'),
      outcome('x5', 's', 'a', false, 'validation', 'a'),
      outcome('x5', 's', 'good', undefined),
    ];
    const record = await replaySampleSwitches(model(), router(), outcomes, 1);
    expect(record.margin).toBe(1);
    expect(record.suites).toEqual([
      { suite: 's', tasks: 5, switches: 3, wins: 1, losses: 1 },
      { suite: 'u', tasks: 1, switches: 1, wins: 1, losses: 0 },
    ]);
    expect(SampleSwitchingSchema.safeParse(record).success).toBe(true);
  });

  it('lets the heads veto a switch: a sample whose lead is within `margin` sds of their disagreement stays out', async () => {
    const outcomes = [outcome('u1', 'u', 'a', false, 'validation', 'a'), outcome('u1', 'u', 'good', true)];
    // The lead over b is 3; heads 10 apart put its sd at 10.
    expect((await replaySampleSwitches(model(10), router(), outcomes, 1)).suites).toEqual([{ suite: 'u', tasks: 1, switches: 0, wins: 0, losses: 0 }]);
    expect((await replaySampleSwitches(model(10), router(), outcomes, 0)).suites).toEqual([{ suite: 'u', tasks: 1, switches: 1, wins: 1, losses: 0 }]);
  });
});

describe('whether switches paid', () => {
  it('needs wins above losses by more than one sd of a coin-flip difference', () => {
    expect(switchesPaid({ wins: 0, losses: 0 })).toBe(false);
    expect(switchesPaid({ wins: 1, losses: 0 })).toBe(false);
    expect(switchesPaid({ wins: 2, losses: 0 })).toBe(true);
    expect(switchesPaid({ wins: 5, losses: 3 })).toBe(false);
    expect(switchesPaid({ wins: 8, losses: 4 })).toBe(true);
  });

  it('answers per suite from the router, for the margin it was replayed at only', () => {
    const fitted = router().withSampleSwitching({
      margin: 1,
      suites: [
        { suite: 's', tasks: 9, switches: 3, wins: 3, losses: 0 },
        { suite: 'u', tasks: 9, switches: 2, wins: 1, losses: 1 },
      ],
    });
    expect(fitted.samplesMayReplace('s', 1)).toBe(true);
    expect(fitted.samplesMayReplace('u', 1)).toBe(false);
    // A suite without validation tasks has no evidence.
    expect(fitted.samplesMayReplace('elsewhere', 1)).toBe(false);
    expect(fitted.samplesMayReplace('s', 2)).toBeUndefined();
    expect(router().samplesMayReplace('s', 1)).toBeUndefined();
    expect(TemplateRouterDataSchema.safeParse(JSON.parse(JSON.stringify(fitted.data))).success).toBe(true);
  });

  it('refuses a record whose counts cannot be', () => {
    const data = router().data;
    for (const suites of [[{ suite: 's', tasks: 2, switches: 3, wins: 0, losses: 0 }], [{ suite: 's', tasks: 5, switches: 2, wins: 2, losses: 1 }], [{ suite: 's', tasks: 1, switches: 0, wins: 0, losses: 0 }, { suite: 's', tasks: 1, switches: 0, wins: 0, losses: 0 }]]) {
      expect(TemplateRouterDataSchema.safeParse({ ...data, sampleSwitching: { margin: 1, suites } }).success).toBe(false);
    }
  });
});
