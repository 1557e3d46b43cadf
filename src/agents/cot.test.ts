import { describe, expect, it } from 'vitest';
import { CotParamsSchema } from '../plan/block-specs.js';
import { createScriptedProvider } from '../testing/scripted-provider.js';
import { cotBlock } from './cot.js';
import { createTestContext, lastUserMessage } from './test-fixtures/block-context.js';

describe('cot block', () => {
  it('makes one call at the node temperature and extracts the answer', async () => {
    const provider = createScriptedProvider(['6 * 7 = 42\n<answer>42</answer>']);
    const context = createTestContext({ provider, params: CotParamsSchema.parse({ temperature: 0.2 }) });
    const result = await cotBlock.run(context);
    expect(result).toEqual({ output: '6 * 7 = 42\n<answer>42</answer>', answer: '42', artifacts: { kind: 'cot' } });
    expect(context.requests).toHaveLength(1);
    expect(context.requests[0]?.temperature).toBe(0.2);
    provider.assertAllUsed();
  });

  it('states the sub-task, and the original question only when they differ', async () => {
    const provider = createScriptedProvider(['<answer>a</answer>', '<answer>b</answer>']);
    const same = createTestContext({ provider, params: CotParamsSchema.parse({}) });
    await cotBlock.run(same);
    const samePrompt = lastUserMessage(same.requests[0]);
    expect(samePrompt).toMatch(/^Step: answer\n\nSub-task:\nWhat is 6 times 7\?\n\nInstructions:\n/);
    expect(samePrompt).not.toContain('Original question:');

    const different = createTestContext({ provider, params: CotParamsSchema.parse({}), input: 'Compute 6 * 7.' });
    await cotBlock.run(different);
    expect(lastUserMessage(different.requests[0])).toContain('Sub-task:\nCompute 6 * 7.\n\nOriginal question:\nWhat is 6 times 7?\n\n');
    provider.assertAllUsed();
  });
});
