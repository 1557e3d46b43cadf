import { describe, expect, test } from 'vitest';
import { FEATURE_COUNT, FEATURE_NAMES, questionFeatures, type FeatureName } from './question-features.js';

const value = (features: Float64Array, name: FeatureName) => features[FEATURE_NAMES.indexOf(name)];

describe('questionFeatures', () => {
  test('is a pure function of the text', () => {
    const question = 'The number of apples is 3 times the number of pears. What is the number of apples?';
    expect(Array.from(questionFeatures(question))).toEqual(Array.from(questionFeatures(`${question}`)));
    expect(questionFeatures(question)).toHaveLength(FEATURE_COUNT);
  });

  test('counts what an arithmetic word problem shows', () => {
    const features = questionFeatures('Each box holds 12 pens. The number of boxes is 3 more than the number of crates, and there are 4 crates. What is the number of pens?');
    expect(value(features, 'bias')).toBe(1);
    expect(value(features, 'numbers')).toBeCloseTo(0.3);
    expect(value(features, 'number_of_phrases')).toBeCloseTo(0.6);
    expect(value(features, 'sentences')).toBeCloseTo(0.3);
    expect(value(features, 'length_short')).toBe(0);
    expect(value(features, 'length_medium')).toBe(1);
    expect(value(features, 'arith_vocab')).toBeGreaterThan(0);
    expect(value(features, 'wh_entity')).toBe(0);
  });

  test('sees relation chains, entity vocabulary, hedges and several asks', () => {
    const chain = questionFeatures('Who is the mentor of the founder of the company where Ann works?');
    expect(value(chain, 'of_chain')).toBeCloseTo(2 / 3);
    expect(value(questionFeatures('In which city was the mentor of the founder of the employer of Carla Belwell born?'), 'of_chain')).toBe(1);
    expect(value(questionFeatures('The number of pens is 3 more than the number of cups.'), 'of_chain')).toBeCloseTo(1 / 3);
    expect(value(chain, 'wh_entity')).toBe(1);
    expect(value(chain, 'multihop_vocab')).toBeGreaterThan(value(chain, 'arith_vocab') as number);
    expect(value(chain, 'length_short')).toBe(1);
    expect(value(questionFeatures("Who founded Ann's employer's parent company?"), 'possessive_chain')).toBe(0.5);
    expect(value(questionFeatures("Uma's tray holds 4 shells and Ann's box holds 3."), 'possessive_chain')).toBe(0);
    const hedged = questionFeatures('Note: a report claims there are 9 apples. What are the apples and pears, respectively?');
    expect(value(hedged, 'hedges')).toBe(1);
    expect(value(hedged, 'asks_several')).toBe(1);
    expect(value(chain, 'asks_several')).toBe(0);
  });

  test('stays bounded on long inputs', () => {
    const long = 'The number of apples is 3 plus the number of pears of the tree of the farm. '.repeat(50);
    for (const feature of questionFeatures(long)) expect(feature).toBeLessThanOrEqual(2);
    expect(value(questionFeatures(long), 'length_long')).toBe(1);
  });
});
