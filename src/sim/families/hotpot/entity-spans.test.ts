import { expect, test } from 'vitest';
import { entitySpans } from './entity-spans.js';

test('finds names, joined across connectors, and numbers', () => {
  expect(entitySpans('In 1993 the Bank of England hired Ada Lovelace.')).toEqual(['1993', 'Bank of England', 'Ada Lovelace']);
  expect(entitySpans('The Beatles met Ludwig van Beethoven. The end.')).toEqual(['Beatles', 'Ludwig van Beethoven']);
  expect(entitySpans('He moved to Bath, Maine in the spring of 1820.')).toEqual(['Bath', 'Maine', '1820']);
  expect(entitySpans('nothing here at all')).toEqual([]);
});
