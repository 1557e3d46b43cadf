import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { UserError } from '../../core/index.js';

/**
 * An on-disk cache of embedding vectors in SQLite, keyed by model, width and the sha256 of the
 * text, so a text is sent to the endpoint once across runs. `:memory:` keeps it in the process.
 */
export class EmbeddingCache {
  private readonly db: Database.Database;
  private readonly select: Database.Statement<[string, number, string], { vector: Buffer }>;
  private readonly insert: Database.Statement<[string, number, string, Buffer]>;

  constructor(readonly path: string) {
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.exec(`CREATE TABLE IF NOT EXISTS embeddings (
        model TEXT NOT NULL, dimensions INTEGER NOT NULL, text_sha256 TEXT NOT NULL, vector BLOB NOT NULL,
        PRIMARY KEY (model, dimensions, text_sha256)) STRICT`);
    } catch (error) {
      throw new UserError(`cannot open the embedding cache ${path} (${(error as Error).message}); pass a writable path`, { cause: error });
    }
    this.select = this.db.prepare('SELECT vector FROM embeddings WHERE model = ? AND dimensions = ? AND text_sha256 = ?');
    this.insert = this.db.prepare('INSERT OR REPLACE INTO embeddings (model, dimensions, text_sha256, vector) VALUES (?, ?, ?, ?)');
  }

  get(model: string, dimensions: number, textSha256: string): Float32Array | undefined {
    const row = this.select.get(model, dimensions, textSha256);
    if (row === undefined || row.vector.byteLength !== dimensions * 4) return undefined;
    // Copy out of the row buffer: it may not be 4-byte aligned.
    const vector = new Float32Array(dimensions);
    new Uint8Array(vector.buffer).set(row.vector);
    return vector;
  }

  putMany(model: string, dimensions: number, entries: readonly [textSha256: string, vector: Float32Array][]): void {
    this.db.transaction(() => {
      for (const [hash, vector] of entries) this.insert.run(model, dimensions, hash, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
