import { z } from 'zod';
import { InvalidInputError, UserError, zodIssues } from '../../core/index.js';

/** Which text an n-gram or embedding feature reads. */
export const FeatureSideSchema = z.enum(['task', 'plan', 'both']);
export type FeatureSide = z.infer<typeof FeatureSideSchema>;

const gramLength = z.number().int().min(1).max(8);

const NgramFeatureSchema = <Kind extends 'words' | 'chars'>(kind: Kind, min: number, max: number) =>
  z
    .strictObject({ kind: z.literal(kind), min: gramLength.default(min), max: gramLength.default(max), of: FeatureSideSchema.default('both') })
    .refine((feature) => feature.min <= feature.max, { message: `${kind}: min must not exceed max (write e.g. ${kind}:${min}-${max})` });

/** Most names a popularity table keeps (the most frequent; a model file is data and stays bounded). */
export const MAX_POPULARITY_NAMES = 20_000;
/** Longest name a popularity table holds (`NAME_SPAN` runs are a few words). */
export const MAX_POPULARITY_NAME_LENGTH = 120;

/**
 * How many of the training tasks mention each name (`taskNames`), as the `popularity` encoder
 * reads it: `names[i]` was mentioned by `counts[i]` of `tasks` distinct training tasks. Names
 * mentioned once are left out (they read like unseen ones).
 */
export const PopularityTableSchema = z
  .strictObject({
    tasks: z.number().int().min(0),
    names: z.array(z.string().min(1).max(MAX_POPULARITY_NAME_LENGTH)).max(MAX_POPULARITY_NAMES),
    counts: z.array(z.number().int().min(1)).max(MAX_POPULARITY_NAMES),
  })
  .refine((table) => table.names.length === table.counts.length, { message: 'a popularity table needs one count per name' });
export type PopularityTable = z.infer<typeof PopularityTableSchema>;

export const FeatureSpecSchema = z.union([
  NgramFeatureSchema('words', 1, 2),
  NgramFeatureSchema('chars', 3, 5),
  z.strictObject({ kind: z.literal('structure') }),
  z.strictObject({ kind: z.literal('task-stats') }),
  z.strictObject({ kind: z.literal('cross') }),
  z.strictObject({ kind: z.literal('names') }),
  z.strictObject({ kind: z.literal('length') }),
  z.strictObject({ kind: z.literal('plan-shape') }),
  z.strictObject({ kind: z.literal('shape') }),
  z.strictObject({ kind: z.literal('route') }),
  z.strictObject({
    kind: z.literal('popularity'),
    /** Filled in by training from its train split's tasks (`fitPopularity`); absent, every name reads as unseen. */
    table: PopularityTableSchema.optional(),
  }),
  z.strictObject({
    kind: z.literal('embed'),
    /** Embedding model name sent to `/v1/embeddings`. */
    model: z.string().min(1),
    /** Width requested from the endpoint and appended to the feature vector. */
    dimensions: z.number().int().min(1).max(4096).default(256),
    of: FeatureSideSchema.default('both'),
    // No endpoint and no key: a spec is stored in model files, which are data a user may download,
    // and data never chooses where requests go or which key they carry. The endpoint comes from
    // whoever builds the pipeline (`FeaturePipelineOptions.embeddings`, `--embeddings-url`).
  }),
]);
export type FeatureSpec = z.infer<typeof FeatureSpecSchema>;

/** Hashed features share one space of 2^hashBits coordinates; dense embeddings follow it. */
export const DEFAULT_HASH_BITS = 18;
/** Most feature encoders one spec may list (the built-in kinds number eleven; repeats only add embeddings or n-gram ranges). */
export const MAX_FEATURE_ENCODERS = 32;

/**
 * The feature configuration of a reward model, stored in its model file. Parse user input with
 * `parseEncoderSpec`, which accepts the compact string grammar or this object (or its JSON).
 */
export const EncoderSpecSchema = z.strictObject({
  /** log2 of the hashed dimension. @default 18 (262,144 coordinates; Vowpal Wabbit's default) */
  hashBits: z.number().int().min(8).max(24).default(DEFAULT_HASH_BITS),
  features: z.array(FeatureSpecSchema).min(1, 'name at least one feature encoder').max(MAX_FEATURE_ENCODERS, `name at most ${MAX_FEATURE_ENCODERS} feature encoders`),
  /**
   * Which reading of a task's shape (`taskShape`) the model was trained with. Absent: the current
   * one. Set to 1 by the loader for model files of format 1 and 2, written before the task shape
   * read the quantity graph, so that such a file scores as it did when it was written.
   */
  taskShapeVersion: z.literal(1).optional(),
});
export type EncoderSpec = z.infer<typeof EncoderSpecSchema>;
export type EncoderSpecInput = z.input<typeof EncoderSpecSchema>;

/**
 * The default: the plan's shape (no words of it) and the task's shape crossed with it. Chosen
 * on the default scenario's validation split over word n-grams, structure and crosses
 * (docs/rm.md): plan text quotes the task, so word features let a model memorise tasks instead
 * of learning which way of planning suits which kind of task.
 */
export const DEFAULT_ENCODER_SPEC_TEXT = 'shape';

export const ENCODER_SPEC_GRAMMAR = `items separated by commas:
  words[:N[-M]][@task|@plan|@both]   hashed word n-grams (default 1-2, both sides)
  chars[:N[-M]][@task|@plan|@both]   hashed character n-grams (default 3-5, both sides)
  structure                          plan structure (blocks, nodes, edges, depth, fan-in, DoM, params, diagnostics)
  task-stats                         task statistics (length, numbers, sentences, question words)
  cross                              task statistics and task words crossed with the plan's block types
  names                              each name the task mentions (capitalised words inside a sentence) crossed with the plan's block types
  length                             plan length and node count only (the length baseline)
  plan-shape                         plan shape without words: decomposition, inner and answer blocks, samples, rounds, temperature
  shape                              plan-shape, plus task shape (quantities, relations, hops, names, question form) crossed with it
  route                              the word problem's structure (doubted, split or chain; independent parts; doubted statements on the answer's path) crossed with the plan shape at full weight
  popularity                         how many training tasks mention the task's best-known name (a table learnt in training) crossed with the plan shape
  embed:MODEL[/DIMS][@task|@plan|@both]  dense embeddings from /v1/embeddings at --embeddings-url (default 256 dims, both sides)
  bits:K                             hashed dimension 2^K, 8..24 (default ${DEFAULT_HASH_BITS})
or a JSON object {"hashBits": 18, "features": [{"kind": "words", "min": 1, "max": 2, "of": "both"}, ...]}`;

const SIDE = /@(task|plan|both)$/;

function parseItem(item: string): FeatureSpec | { bits: number } {
  const sideMatch = SIDE.exec(item);
  const side = sideMatch?.[1] as FeatureSide | undefined;
  const body = sideMatch ? item.slice(0, sideMatch.index) : item;
  const colon = body.indexOf(':');
  const name = colon === -1 ? body : body.slice(0, colon);
  const argument = colon === -1 ? undefined : body.slice(colon + 1);
  const noArgument = (kind: 'structure' | 'task-stats' | 'cross' | 'names' | 'length' | 'plan-shape' | 'shape' | 'route' | 'popularity') => {
    if (argument !== undefined || side !== undefined) throw new UserError(`encoder item "${item}": ${kind} takes no arguments`);
    return { kind };
  };
  switch (name) {
    case 'words':
    case 'chars': {
      const range = argument === undefined ? undefined : /^(\d+)(?:-(\d+))?$/.exec(argument);
      if (argument !== undefined && !range) throw new UserError(`encoder item "${item}": write the n-gram range as N or N-M, e.g. ${name}:1-2`);
      const min = range ? Number(range[1]) : undefined;
      const max = range ? Number(range[2] ?? range[1]) : undefined;
      return FeatureSpecSchema.parse({ kind: name, ...(min === undefined ? {} : { min, max }), ...(side ? { of: side } : {}) });
    }
    case 'embed': {
      if (!argument) throw new UserError(`encoder item "${item}": name the embedding model, e.g. embed:text-embedding-3-small/256`);
      const withDimensions = /^(.+)\/(\d+)$/.exec(argument);
      const model = withDimensions ? withDimensions[1]! : argument;
      const dimensions = withDimensions ? Number(withDimensions[2]) : undefined;
      return FeatureSpecSchema.parse({ kind: 'embed', model, ...(dimensions === undefined ? {} : { dimensions }), ...(side ? { of: side } : {}) });
    }
    case 'bits':
      if (!argument || !/^\d+$/.test(argument)) throw new UserError(`encoder item "${item}": write bits:K with K from 8 to 24`);
      return { bits: Number(argument) };
    case 'structure':
    case 'task-stats':
    case 'cross':
    case 'names':
    case 'length':
    case 'plan-shape':
    case 'shape':
    case 'route':
    case 'popularity':
      return noArgument(name);
    default:
      throw new UserError(`unknown encoder item "${item}"; the encoder spec grammar is:\n${ENCODER_SPEC_GRAMMAR}`);
  }
}

/**
 * Reads an encoder spec from the string grammar (`ENCODER_SPEC_GRAMMAR`), from JSON text, or
 * from an object; throws a UserError naming the bad item.
 *
 * @example
 * parseEncoderSpec('words:1-2,chars:3-5@plan,structure,task-stats,cross,bits:20')
 */
export function parseEncoderSpec(input: string | EncoderSpecInput): EncoderSpec {
  let value: unknown = input;
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.startsWith('{')) {
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new UserError(`encoder spec JSON does not parse (${(error as Error).message}); check the quoting`);
      }
    } else {
      const features: FeatureSpec[] = [];
      let hashBits: number | undefined;
      for (const item of text.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
        const parsed = (() => {
          try {
            return parseItem(item);
          } catch (error) {
            if (error instanceof z.ZodError) throw new InvalidInputError(`encoder item "${item}"`, zodIssues(error), ENCODER_SPEC_GRAMMAR);
            throw error;
          }
        })();
        if ('bits' in parsed) hashBits = parsed.bits;
        else features.push(parsed);
      }
      value = { ...(hashBits === undefined ? {} : { hashBits }), features };
    }
  }
  const endpoint = endpointFieldsOf(value)[0];
  if (endpoint !== undefined) {
    throw new UserError(`encoder spec: ${endpoint.path} names ${endpoint.what}, which a spec may not hold (specs are stored in model files); ${EMBEDDINGS_ENDPOINT_FIX}`);
  }
  const result = EncoderSpecSchema.safeParse(value);
  if (!result.success) throw new InvalidInputError('encoder spec', zodIssues(result.error), `the grammar is:\n${ENCODER_SPEC_GRAMMAR}`);
  return result.data;
}

/** How a user gives the embedding endpoint and key, said by every error about one. */
export const EMBEDDINGS_ENDPOINT_FIX =
  'give the embeddings endpoint yourself with --embeddings-url <url> (its key is read from --embeddings-api-key-env, default OPENAI_API_KEY; in the library, the `features: { embeddings: { baseURL, apiKey } }` option)';

/** Keys of a feature that would choose a destination or credentials: never accepted from a spec. */
const ENDPOINT_KEY = /url|uri|endpoint|host|key|token|secret|auth|header|password/i;

/**
 * The fields of a raw encoder spec (parsed JSON, before validation) that name an endpoint or a
 * credential, such as the `baseURL` older orchrm wrote into `embed` features. A spec is data,
 * stored in model files anyone may hand out, so such a field is refused rather than used.
 */
export function endpointFieldsOf(spec: unknown): { path: string; what: string; value: string }[] {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) return [];
  const features = (spec as { features?: unknown }).features;
  if (!Array.isArray(features)) return [];
  const found: { path: string; what: string; value: string }[] = [];
  features.slice(0, MAX_FEATURE_ENCODERS + 1).forEach((feature: unknown, index) => {
    if (feature === null || typeof feature !== 'object') return;
    for (const [key, value] of Object.entries(feature)) {
      if (!ENDPOINT_KEY.test(key)) continue;
      const shown = JSON.stringify(value) ?? String(value);
      found.push({ path: `features[${index}].${key}`, what: `an endpoint or credential (${shown.length > 120 ? `${shown.slice(0, 120)}...` : shown})`, value: shown });
    }
  });
  return found;
}

/**
 * Width of the feature vector a spec makes, without building it: 2^hashBits hashed coordinates,
 * then each embedding's dimensions once per side it reads. `new FeaturePipeline(spec).dimension` equals it.
 */
export function featureDimension(spec: EncoderSpec): number {
  let dimension = 2 ** spec.hashBits;
  for (const feature of spec.features) if (feature.kind === 'embed') dimension += feature.dimensions * (feature.of === 'both' ? 2 : 1);
  return dimension;
}

/** The compact string form of a spec; `parseEncoderSpec(formatEncoderSpec(spec))` equals `spec`, less a fitted popularity table. */
export function formatEncoderSpec(spec: EncoderSpec): string {
  const items = spec.features.map((feature) => {
    switch (feature.kind) {
      case 'words':
      case 'chars':
        return `${feature.kind}:${feature.min}-${feature.max}@${feature.of}`;
      case 'embed':
        return `embed:${feature.model}/${feature.dimensions}@${feature.of}`;
      default:
        return feature.kind;
    }
  });
  return [...items, `bits:${spec.hashBits}`].join(',');
}

/**
 * The spec with every task-dependent feature removed (task n-grams, task statistics, crosses, names,
 * task shape, route, popularity, task embeddings): the plan-only baseline of the evaluation. Throws when nothing is left.
 */
export function planOnlySpec(spec: EncoderSpec): EncoderSpec {
  const features: FeatureSpec[] = [];
  for (const feature of spec.features) {
    if (feature.kind === 'task-stats' || feature.kind === 'cross' || feature.kind === 'names' || feature.kind === 'route' || feature.kind === 'popularity') continue;
    if (feature.kind === 'shape') {
      features.push({ kind: 'plan-shape' });
      continue;
    }
    if ('of' in feature) {
      if (feature.of === 'task') continue;
      features.push({ ...feature, of: 'plan' });
    } else features.push(feature);
  }
  if (features.length === 0) throw new UserError(`encoder spec ${formatEncoderSpec(spec)} has no plan features; add e.g. words:1-2@plan or structure`);
  return { hashBits: spec.hashBits, features };
}
