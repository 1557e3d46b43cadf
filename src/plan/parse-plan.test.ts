import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DiagnosticCodeSchema } from '../core/plan.js';
import { createBlockCatalog, type BlockSpec } from './block-specs.js';
import { z } from 'zod';
import { parsePlan, type PlanParseOutcome } from './parse-plan.js';
import { renderPlan } from './render-plan.js';
import { validPlan } from './test-fixtures/plan-arbitrary.js';

const catalog = createBlockCatalog();

/** The result is well-formed, and no diagnostic is an internal error of ours. */
function expectWellFormed(result: PlanParseOutcome): void {
  expect(['json', 'xml', 'unknown']).toContain(result.format);
  if (result.ok) return;
  expect(result.diagnostics.length).toBeGreaterThan(0);
  for (const diagnostic of result.diagnostics) {
    expect(DiagnosticCodeSchema.safeParse(diagnostic.code).success).toBe(true);
    expect(diagnostic.message).not.toMatch(/internal error/);
  }
}

const PLAN_TOKENS = ['<agent>', '</agent>', '<agent_id>', '</agent_id>', '<agent_name>', '<edge>', '<from>', '</to>', '<dom>', '{', '}', '[', ']', '"nodes"', '"edges"', ':', ',', '"A"', '${A}', '```json\n', '```', "'", '"', '\\', '<!--', '<![CDATA[', '&', 'cot', 'null'];
const planLikeNoise = fc.array(fc.oneof(fc.constantFrom(...PLAN_TOKENS), fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(''));

/** Deletes, duplicates or inserts a slice, or truncates: the slips of a sampled model. */
const mutation = fc.tuple(fc.constantFrom('delete', 'duplicate', 'insert', 'truncate'), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 6 }));
function mutate(text: string, [kind, at, length, inserted]: [string, number, number, string]): string {
  const start = text.length === 0 ? 0 : at % text.length;
  if (kind === 'delete') return text.slice(0, start) + text.slice(start + length);
  if (kind === 'duplicate') return text.slice(0, start + length) + text.slice(start);
  if (kind === 'insert') return text.slice(0, start) + inserted + text.slice(start);
  return text.slice(0, start);
}

describe('parsePlan never throws', () => {
  test('on random strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), planLikeNoise), fc.constantFrom('auto', 'json', 'xml' as const), (text, format) => {
        expectWellFormed(parsePlan(text, { format }));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  test('on mutated plans in both formats', () => {
    fc.assert(
      fc.property(validPlan, fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 4 }), (plan, asJson, mutations) => {
        const text = asJson ? JSON.stringify(plan) : renderPlan(plan, catalog);
        expectWellFormed(parsePlan(mutations.reduce(mutate, text), { catalog }));
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  test('on values that are not strings', () => {
    expect(parsePlan(undefined as unknown as string).ok).toBe(false);
    expect(parsePlan(42 as unknown as string)).toMatchObject({ ok: false, format: 'unknown' });
  });

  test('when a user block schema itself throws, the bug becomes a diagnostic', () => {
    const broken: BlockSpec = {
      name: 'broken',
      aliases: [],
      description: 'throws while parsing params',
      paramsSchema: z.record(z.string(), z.unknown()).transform(() => {
        throw new Error('schema exploded');
      }),
      requiredParams: [],
    };
    const result = parsePlan('{"dom": "low", "nodes": [{"id": "A", "agent": "broken"}]}', { catalog: createBlockCatalog([broken]) });
    expect(result).toMatchObject({ ok: false, format: 'unknown', diagnostics: [{ code: 'internal_error', path: '' }] });
  });
});

describe('size', () => {
  test('a 1 MB output is read to a result', () => {
    const filler = 'Reasoning about {sets} and a<b comparisons & more. '.repeat(20_000);
    const text = `${filler}\n{"dom": "low", "nodes": [{"id": "A", "agent": "cot", "input": "${'x'.repeat(10)}"}]}`;
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(parsePlan(text)).toMatchObject({ ok: true, format: 'json' });
    const xml = `${filler}<dom>low</dom><agent><agent_id>A</agent_id><agent_name>cot</agent_name></agent>`;
    expect(parsePlan(xml)).toMatchObject({ ok: true, format: 'xml' });
  });

  test('1 MB of deeply nested or unclosed structure returns', () => {
    expectWellFormed(parsePlan('{"a": '.repeat(170_000)));
    expectWellFormed(parsePlan('<agent>'.repeat(150_000)));
    expectWellFormed(parsePlan(`${'<agent><agent_id>A</agent_id><agent_input>'.repeat(100)}${'x & y < z '.repeat(100_000)}`));
    expectWellFormed(parsePlan('${'.repeat(500_000)));
  });

  test('text over the cap is refused', () => {
    expect(parsePlan('x'.repeat(2_000_001))).toMatchObject({ ok: false, diagnostics: [{ code: 'too_large' }] });
  });
});

describe('format detection', () => {
  test('XML structure tags win over braces in inputs', () => {
    const text = '<dom>low</dom><agent><agent_id>A</agent_id><agent_name>cot</agent_name><agent_input>Is {"a": 1} valid JSON?</agent_input></agent>';
    expect(parsePlan(text)).toMatchObject({ ok: true, format: 'xml', plan: { nodes: [{ input: 'Is {"a": 1} valid JSON?' }] } });
  });

  test('an <answer> direct answer is XML even with braces in it', () => {
    expect(parsePlan('<answer>{1, 2}</answer>')).toMatchObject({ ok: true, format: 'xml', plan: { directAnswer: '{1, 2}' } });
  });

  test('a forced format is reported as given', () => {
    expect(parsePlan('<answer>3</answer>', { format: 'json' })).toMatchObject({ ok: false, format: 'json' });
  });

  test('text with neither format is unknown', () => {
    expect(parsePlan('The answer is 3.')).toMatchObject({ ok: false, format: 'unknown', diagnostics: [{ code: 'no_plan_found' }] });
  });
});
