import { UserError } from '../core/errors.js';

/** Most stored nonzeros (row offsets are 32-bit). */
export const MAX_MATRIX_NONZEROS = 0xffffffff;

/**
 * Rows of sparse feature vectors in compressed sparse row form: row r is
 * `indices[rowStart[r] .. rowStart[r + 1])` with matching `values`. Every distinct
 * (task, plan) is stored once and pairs refer to rows, so the training loop reads typed
 * arrays only.
 */
export interface FeatureMatrix {
  readonly dimension: number;
  readonly rowCount: number;
  /** rowCount + 1 offsets. */
  readonly rowStart: Uint32Array;
  readonly indices: Uint32Array;
  readonly values: Float32Array;
}

/** Appends rows, doubling its buffers as needed; `finish` trims them to size. */
export class FeatureMatrixBuilder {
  private rowStart: Uint32Array = new Uint32Array(1024);
  private indices: Uint32Array = new Uint32Array(1 << 16);
  private values: Float32Array = new Float32Array(1 << 16);
  private rows = 0;
  private nonzeros = 0;

  constructor(readonly dimension: number) {}

  get rowCount(): number {
    return this.rows;
  }

  /** Adds a row from the first `count` entries of the buffers; returns its row number. */
  append(indices: Uint32Array, values: Float32Array, count: number): number {
    if (this.nonzeros + count > MAX_MATRIX_NONZEROS) {
      throw new UserError(`the training data has more than ${MAX_MATRIX_NONZEROS} feature nonzeros; use fewer pairs or a smaller encoder spec (fewer n-gram lengths)`);
    }
    if (this.rows + 2 > this.rowStart.length) this.rowStart = grow(this.rowStart, this.rowStart.length * 2);
    if (this.nonzeros + count > this.indices.length) {
      const capacity = Math.min(MAX_MATRIX_NONZEROS, Math.max(this.indices.length * 2, this.nonzeros + count));
      this.indices = grow(this.indices, capacity);
      this.values = grow(this.values, capacity);
    }
    this.indices.set(indices.subarray(0, count), this.nonzeros);
    this.values.set(values.subarray(0, count), this.nonzeros);
    this.nonzeros += count;
    this.rows++;
    this.rowStart[this.rows] = this.nonzeros;
    return this.rows - 1;
  }

  finish(): FeatureMatrix {
    return {
      dimension: this.dimension,
      rowCount: this.rows,
      rowStart: this.rowStart.slice(0, this.rows + 1),
      indices: this.indices.slice(0, this.nonzeros),
      values: this.values.slice(0, this.nonzeros),
    };
  }
}

function grow<Array extends Uint32Array | Float32Array>(array: Array, capacity: number): Array {
  const larger = (array instanceof Uint32Array ? new Uint32Array(capacity) : new Float32Array(capacity)) as Array;
  larger.set(array);
  return larger;
}
