import { describe, expect, it } from 'vitest';
import { ScParamsSchema } from '../plan/block-specs.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import { scBlock } from './sc.js';
import { createTestContext } from './test-fixtures/block-context.js';

describe('sc block', () => {
  it('samples with distinct sample indexes and votes on normalised answers', async () => {
    const provider = createScriptedProvider([
      '<answer>41</answer>',
      '<answer>$42.0$</answer>',
      'Answer: 1,000',
      '<answer>42</answer>',
      '<answer>41</answer>',
      '<answer>42.</answer>',
    ]);
    const context = createTestContext({ provider, params: ScParamsSchema.parse({ samples: 6, temperature: 0.9 }) });
    const result = await scBlock.run(context);
    expect(context.requests.map((request) => request.sampleIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(context.requests.map((request) => request.temperature))).toEqual(new Set([0.9]));
    expect(result.artifacts).toEqual({
      kind: 'sc',
      samples: ['41', '$42.0$', '1,000', '42', '41', '42.'],
      votes: [
        { answer: '41', count: 2 },
        { answer: '42', count: 3 },
        { answer: '1000', count: 1 },
      ],
      winner: '42',
      voteShare: 0.5,
    });
    // The node's answer is the winning group's first sample as written, with its text.
    expect(result.answer).toBe('$42.0$');
    expect(result.output).toBe('<answer>$42.0$</answer>');
    provider.assertAllUsed();
  });

  it('breaks a tie in favour of the answer seen first', async () => {
    const provider = createScriptedProvider(['<answer>B</answer>', '<answer>a</answer>', '<answer>A</answer>', '<answer>b</answer>']);
    const context = createTestContext({ provider, params: ScParamsSchema.parse({ samples: 4 }) });
    const result = await scBlock.run(context);
    expect(result.artifacts).toMatchObject({ winner: 'b', voteShare: 0.5, votes: [{ answer: 'b', count: 2 }, { answer: 'a', count: 2 }] });
    expect(result.answer).toBe('B');
  });

  it('does not let empty answers win', async () => {
    const provider = createScriptedProvider(['', '', '<answer>7</answer>']);
    const context = createTestContext({ provider, params: ScParamsSchema.parse({ samples: 3 }) });
    const result = await scBlock.run(context);
    expect(result.answer).toBe('7');
    expect(result.artifacts).toMatchObject({ samples: ['', '', '7'], votes: [{ answer: '7', count: 1 }], voteShare: 1 / 3 });
  });

  it('reports no winner when no sample answered', async () => {
    const provider = createScriptedProvider(['', ' ']);
    const result = await scBlock.run(createTestContext({ provider, params: ScParamsSchema.parse({ samples: 2 }) }));
    expect(result.answer).toBe('');
    expect(result.artifacts).toEqual({ kind: 'sc', samples: ['', ''], votes: [], winner: '', voteShare: 0 });
  });
});
