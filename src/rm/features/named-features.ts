/**
 * What `FeatureEncoder.explain` writes to: each feature an encoder adds, with a readable name.
 * `addHashed` takes the same hash `encode` hands to `FeatureAccumulator.addHashed`, so a named
 * feature lands on the very coordinate (and with the very sign) it has in the encoded vector.
 */
export interface NamedFeatureSink {
  addHashed(name: string, hash: number, mask: number, value: number): void;
  /** A dense coordinate (embeddings), unsigned. */
  add(name: string, index: number, value: number): void;
}

/** One named feature of an encoded (task, plan) example. */
export interface NamedFeature {
  /** The encoder that made it, as the spec names it (`shape`, `words:1-2@plan`). */
  encoder: string;
  /** What it stands for (`plan uses=search`, `task words "how many"`). */
  name: string;
  /** Its coordinate in the feature vector. */
  index: number;
  /** Its signed value there (hashed features carry the sign of their hash); repeats are summed. */
  value: number;
}

/** Collects named features, summing repeats of one (encoder, name, coordinate). */
export class NamedFeatureCollector implements NamedFeatureSink {
  private readonly byKey = new Map<string, NamedFeature>();

  constructor(private encoder = '') {}

  /** Names the encoder whose features follow. */
  startEncoder(encoder: string): void {
    this.encoder = encoder;
  }

  addHashed(name: string, hash: number, mask: number, value: number): void {
    this.add(name, hash & mask, hash >>> 31 === 1 ? -value : value);
  }

  add(name: string, index: number, value: number): void {
    const key = `${this.encoder}\u0000${name}\u0000${index}`;
    const known = this.byKey.get(key);
    if (known === undefined) this.byKey.set(key, { encoder: this.encoder, name, index, value });
    else known.value += value;
  }

  /** Every feature in the order first added. */
  features(): NamedFeature[] {
    return [...this.byKey.values()];
  }
}
