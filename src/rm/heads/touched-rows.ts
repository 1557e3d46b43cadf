/**
 * The set of sparse-layer rows with a gradient in the current minibatch: a list plus a
 * generation stamp per row, so membership is O(1) and clearing is O(1).
 */
export class TouchedRows {
  rows: Uint32Array;
  count = 0;
  private readonly stamps: Uint32Array;
  private generation = 1;

  constructor(rowCount: number) {
    this.stamps = new Uint32Array(rowCount);
    this.rows = new Uint32Array(Math.min(rowCount, 4096));
  }

  add(row: number): void {
    if (this.stamps[row] === this.generation) return;
    this.stamps[row] = this.generation;
    if (this.count === this.rows.length) {
      const larger = new Uint32Array(Math.min(this.stamps.length, this.rows.length * 2));
      larger.set(this.rows);
      this.rows = larger;
    }
    this.rows[this.count++] = row;
  }

  clear(): void {
    this.count = 0;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    } else this.generation++;
  }
}
