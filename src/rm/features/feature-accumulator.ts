/** Most distinct nonzero coordinates one (task, plan) example may have; more is a bug upstream. */
export const MAX_FEATURES_PER_EXAMPLE = 1 << 20;

/**
 * Collects (index, value) contributions for one example, summing duplicates, then writes them
 * sorted by index into caller buffers. Uses a dense scratch row plus a touched-index list
 * (generation-stamped, so clearing costs nothing): allocation-free after construction.
 *
 * @example
 * const accumulator = new FeatureAccumulator(1 << 18);
 * accumulator.add(7, 1); accumulator.add(3, 0.5); accumulator.add(7, 1);
 * const count = accumulator.finish(indices, values, 0); // indices [3, 7], values [0.5, 2]
 */
export class FeatureAccumulator {
  private readonly sums: Float64Array;
  private readonly stamps: Uint32Array;
  private touched = new Uint32Array(1024);
  private count = 0;
  private generation = 1;

  constructor(readonly dimension: number) {
    this.sums = new Float64Array(dimension);
    this.stamps = new Uint32Array(dimension);
  }

  add(index: number, value: number): void {
    if (this.stamps[index] !== this.generation) {
      this.stamps[index] = this.generation;
      this.sums[index] = value;
      if (this.count === this.touched.length) this.grow();
      this.touched[this.count++] = index;
    } else this.sums[index]! += value;
  }

  /** Adds a signed hashed feature: low bits pick the coordinate, the top bit the sign. */
  addHashed(hash: number, mask: number, value: number): void {
    this.add(hash & mask, hash >>> 31 === 1 ? -value : value);
  }

  /** Distinct coordinates touched so far (an upper bound on what `finish` writes). */
  get size(): number {
    return this.count;
  }

  /**
   * Writes the nonzero sums sorted by index at `offset` in the buffers (which must have room for
   * `size` more entries), returns how many were written, and resets for the next example.
   */
  finish(indices: Uint32Array, values: Float32Array, offset: number): number {
    const touched = this.touched.subarray(0, this.count);
    touched.sort();
    let written = offset;
    for (let position = 0; position < touched.length; position++) {
      const index = touched[position]!;
      const sum = this.sums[index]!;
      // Signed hashing can cancel a coordinate exactly; a stored zero would only cost time.
      if (sum === 0) continue;
      indices[written] = index;
      values[written] = sum;
      written++;
    }
    this.reset();
    return written - offset;
  }

  reset(): void {
    this.count = 0;
    this.generation = this.generation === 0xffffffff ? this.restamp() : this.generation + 1;
  }

  private restamp(): number {
    this.stamps.fill(0);
    return 1;
  }

  private grow(): void {
    if (this.touched.length >= MAX_FEATURES_PER_EXAMPLE) throw new RangeError(`an example produced more than ${MAX_FEATURES_PER_EXAMPLE} features`);
    const larger = new Uint32Array(this.touched.length * 2);
    larger.set(this.touched);
    this.touched = larger;
  }
}
