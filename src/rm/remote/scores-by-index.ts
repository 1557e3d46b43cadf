import { MalformedResponseError } from '../../llm/index.js';

/**
 * Reads one score per input from a vLLM reply whose `data` items carry the input's `index`
 * (`/classify`, `/pooling`): refuses a reply with the wrong count, a repeated index or one out of
 * range, and puts each item's score where its index says.
 */
export function scoresByIndex<Item extends { index: number }>(data: readonly Item[], expected: number, url: string, scoreOf: (item: Item) => number): number[] {
  if (data.length !== expected) throw new MalformedResponseError(`${url} returned ${data.length} results for ${expected} inputs`, { retryable: false });
  const scores = new Array<number>(expected);
  const seen = new Set<number>();
  for (const item of data) {
    if (item.index >= expected || seen.has(item.index)) {
      throw new MalformedResponseError(`${url} returned result index ${item.index} twice or out of range for ${expected} inputs`, { retryable: false });
    }
    seen.add(item.index);
    scores[item.index] = scoreOf(item);
  }
  return scores;
}

/** The reward among a head's outputs: `classIndex`, or the only one; refuses several outputs without a choice. */
export function chooseOutput(outputs: readonly number[], classIndex: number | undefined, url: string, several: string): number {
  const chosen = classIndex ?? (outputs.length === 1 ? 0 : undefined);
  if (chosen === undefined) throw new MalformedResponseError(`${url}: ${several}; pass classIndex to pick one`, { retryable: false });
  const value = outputs[chosen];
  if (value === undefined) throw new MalformedResponseError(`${url}: classIndex ${chosen} is out of range for ${outputs.length} outputs`, { retryable: false });
  return value;
}
