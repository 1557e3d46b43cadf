import { Rng } from '../../core/rng.js';
import { FeatureMatrixBuilder } from '../pair-dataset.js';
import type { PairDataset } from '../pair-dataset.js';

/**
 * A small random pair dataset built directly as typed arrays (for numeric tests): `rows`
 * sparse rows over `dimension` features with `nonzerosPerRow` entries each, and `pairs` random
 * pairs with weights in [0.5, 1.5] and margins in [0, 0.5). All pairs are in the train split.
 */
export function randomPairDataset(options: { dimension: number; rows: number; nonzerosPerRow: number; pairs: number; seed: number }): PairDataset {
  const { dimension, rows, nonzerosPerRow, pairs, seed } = options;
  const rng = new Rng(seed);
  const builder = new FeatureMatrixBuilder(dimension);
  const indices = new Uint32Array(nonzerosPerRow);
  const values = new Float32Array(nonzerosPerRow);
  for (let row = 0; row < rows; row++) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(nonzerosPerRow, dimension)) chosen.add(rng.int(0, dimension - 1));
    const sorted = [...chosen].sort((a, b) => a - b);
    sorted.forEach((index, position) => {
      indices[position] = index;
      values[position] = rng.normal();
    });
    builder.append(indices, values, sorted.length);
  }
  const winner = new Uint32Array(pairs);
  const loser = new Uint32Array(pairs);
  const weight = new Float64Array(pairs);
  const margin = new Float64Array(pairs);
  for (let pair = 0; pair < pairs; pair++) {
    winner[pair] = rng.int(0, rows - 1);
    loser[pair] = (winner[pair]! + rng.int(1, rows - 1)) % rows;
    weight[pair] = 0.5 + rng.next();
    margin[pair] = rng.next() * 0.5;
  }
  return {
    matrix: builder.finish(),
    winner,
    loser,
    weight,
    margin,
    split: new Uint8Array(pairs),
    pairIds: Array.from({ length: pairs }, (_, index) => `p${index}`),
    sources: new Array<string>(pairs).fill('outcome'),
    dataHash: `random-${seed}`,
  };
}
