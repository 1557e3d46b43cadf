import { MAX_POPULARITY_NAME_LENGTH, MAX_POPULARITY_NAMES, type PopularityTable } from './encoder-spec.js';
import type { FeatureAccumulator } from './feature-accumulator.js';
import type { FeatureEncoder } from './feature-encoder.js';
import { murmur3Ints, murmur3String } from './murmur3.js';
import type { NamedFeatureSink } from './named-features.js';
import type { PlanAnalysis } from './plan-analysis.js';
import type { TaskAnalysis } from './task-analysis.js';
import { countBucket } from './task-shape.js';
import { addCrossedHashes, taskNames } from './task-encoders.js';

/**
 * The task-shape names the `route` encoder crosses at full weight: the word problem's structure
 * read from its quantity graph (`quantity_structure` doubted, split or chain; `asked_parts`, the
 * independent parts the answer combines; `doubted_on_path`, doubted statements the answer needs).
 * Each says which way of planning should suit the task (a critic, a decomposition, independent
 * samples), which is why these few and not every task fact.
 */
const ROUTE_FACT = /^(quantity_structure|asked_parts|doubted_on_path)=/;

/**
 * An encoder that crosses a few task facts with every plan shape name (`PlanAnalysis.shapeNames`), each cross
 * at the weight of a plan feature (1/sqrt(plan names)). The `shape` encoder crosses every task
 * fact too, but spreads them to norm 1 over 20-odd facts, so one fact's cross carries about a
 * twentieth of a plan feature's weight and a linear head trained on a few hundred tasks does not
 * move it far enough to change which plan ranks first (docs/rm.md, "What the model reads").
 */
function createFactCrossEncoder(name: 'route' | 'popularity', mask: number, factsOf: (task: TaskAnalysis) => readonly string[]): FeatureEncoder {
  const seed = murmur3String(name, 0);
  // Plans of one task are scored one after another: read its facts once.
  let lastTask: TaskAnalysis | undefined;
  let lastFacts: readonly string[] = [];
  let lastHashes: number[] = [];
  const facts = (task: TaskAnalysis) => {
    if (lastTask !== task) {
      lastFacts = factsOf(task);
      lastHashes = lastFacts.map((fact) => murmur3String(fact, 0));
      lastTask = task;
    }
    return lastHashes;
  };
  return {
    name,
    taskOnly: false,
    encode(task: TaskAnalysis, plan: PlanAnalysis, out: FeatureAccumulator) {
      const factHashes = facts(task);
      if (factHashes.length === 0) return;
      addCrossedHashes(out, seed, mask, plan.shapeHashes, factHashes, 1 / Math.sqrt(plan.shapeHashes.length));
    },
    explain(task: TaskAnalysis, plan: PlanAnalysis, out: NamedFeatureSink) {
      facts(task);
      if (lastFacts.length === 0) return;
      const planNames = plan.shapeNames;
      const value = 1 / Math.sqrt(planNames.length);
      for (const planName of planNames) {
        for (const fact of lastFacts) out.addHashed(`task ${fact} x plan ${planName}`, murmur3Ints(seed, murmur3String(fact, 0), murmur3String(planName, 0)), mask, value);
      }
    },
  };
}

/** The word problem's structure facts among a task's shape names (`ROUTE_FACT`); none for a text without quantities. */
export function routeFacts(task: TaskAnalysis): string[] {
  return task.shapeNames.filter((fact) => ROUTE_FACT.test(fact));
}

/** The `route` encoder: the word problem's structure facts (`routeFacts`) crossed with the plan shape at full weight. */
export function createRouteEncoder(mask: number): FeatureEncoder {
  return createFactCrossEncoder('route', mask, routeFacts);
}

/**
 * How popular the task's best-known name is: the most training tasks any of its names was
 * mentioned by, bucketed 0-1, 2, 3-4, 5-8, 9-16, 17+ (a training task counts itself, so a name
 * seen once reads like an unseen one). Undefined for a task that names nothing.
 */
export function popularityBucket(names: readonly string[], counts: ReadonlyMap<string, number>): string | undefined {
  if (names.length === 0) return undefined;
  let most = 0;
  for (const name of names) most = Math.max(most, counts.get(name) ?? 0);
  return `popularity=${most <= 1 ? '0-1' : countBucket(most)}`;
}

/**
 * The `popularity` encoder: the bucket of `popularityBucket` crossed with the plan shape at full
 * weight. Language models recall facts about popular entities without retrieval and fail on
 * rare ones, and entity popularity decides when retrieval helps (PopQA, Mallen et al., arXiv
 * 2212.10511, who retrieve only below a popularity threshold). A reward model that reads text
 * cannot know an entity's popularity from its name; how many training tasks mention it is the
 * popularity it can measure, from task texts alone (no grade read).
 */
export function createPopularityEncoder(mask: number, table: PopularityTable | undefined): FeatureEncoder {
  const counts = popularityCounts(table);
  return createFactCrossEncoder('popularity', mask, (task) => {
    const bucket = popularityBucket(taskNames(task.text), counts);
    return bucket === undefined ? [] : [bucket];
  });
}

/** How far before a name `governingRelation` looks for "the <relation> of ". @unit characters */
const RELATION_LOOKBACK = 64;
/** A relation is one or two lowercase words ("mayor", "headquarters city"). */
const RELATION_WORD = /^[a-z]+$/;

/**
 * The relation that governs a name in a question: the one or two lowercase words between "the" and
 * "of" right before the name's first mention ("the mayor of Mount Denton" -> "mayor"); undefined
 * otherwise. It reads at most `RELATION_LOOKBACK` characters before the name, so it is linear in the
 * question's length whatever the text holds.
 */
export function governingRelation(question: string, name: string): string | undefined {
  const at = question.indexOf(name);
  if (at < 0) return undefined;
  const before = question.slice(Math.max(0, at - RELATION_LOOKBACK), at);
  if (!before.endsWith(' of ')) return undefined;
  const words = before.slice(0, -' of '.length).split(' ');
  const the = words.lastIndexOf('the');
  const relation = the < 0 ? [] : words.slice(the + 1);
  return relation.length >= 1 && relation.length <= 2 && relation.every((word) => RELATION_WORD.test(word)) ? relation.join(' ') : undefined;
}

/** The task's best-known name: the one the most training tasks mention (the first on a tie); undefined for a task that names nothing. */
export function bestKnownName(names: readonly string[], counts: ReadonlyMap<string, number>): string | undefined {
  let best: string | undefined;
  let most = -1;
  for (const name of names) {
    const count = counts.get(name) ?? 0;
    if (count > most) [best, most] = [name, count];
  }
  return best;
}

/**
 * Per relation (`governingRelation`), the mean count (`counts`) of the best-known names it governs
 * over the given task texts (each distinct text once): what a name in that place is mentioned on
 * average. Cities are mentioned more often than people for being cities; a name is popular for its
 * kind when it is mentioned more than its relation's mean. Relations longer than
 * `MAX_POPULARITY_NAME_LENGTH` characters are skipped, and at most `limit` are kept, the most
 * frequent first.
 */
export function relationMeans(taskTexts: Iterable<string>, counts: ReadonlyMap<string, number>, limit: number): Map<string, number> {
  const sums = new Map<string, { mentions: number; names: number }>();
  const seen = new Set<string>();
  for (const text of taskTexts) {
    if (seen.has(text)) continue;
    seen.add(text);
    const name = bestKnownName(taskNames(text), counts);
    const relation = name === undefined ? undefined : governingRelation(text, name);
    if (relation === undefined || relation.length > MAX_POPULARITY_NAME_LENGTH) continue;
    const entry = sums.get(relation) ?? { mentions: 0, names: 0 };
    entry.mentions += counts.get(name!) ?? 0;
    entry.names += 1;
    sums.set(relation, entry);
  }
  const kept = [...sums].sort(([a, x], [b, y]) => y.names - x.names || (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit);
  return new Map(kept.map(([relation, entry]) => [relation, entry.mentions / entry.names]));
}

/**
 * How popular the task's best-known name (among `names`, the question's `taskNames`) is for its kind: its mentions over the mean of its
 * relation's names (`relationMeans`), bucketed below 0.5, 0.5-1, 1-2, 2-4, 4 and above. Undefined
 * when the name has no governing relation, or one without a mean above 0.
 */
export function relativePopularityBucket(question: string, names: readonly string[], counts: ReadonlyMap<string, number>, means: ReadonlyMap<string, number>): string | undefined {
  const name = bestKnownName(names, counts);
  const relation = name === undefined ? undefined : governingRelation(question, name);
  const mean = relation === undefined ? undefined : means.get(relation);
  if (mean === undefined || !(mean > 0)) return undefined;
  const ratio = (counts.get(name!) ?? 0) / mean;
  return `relative_popularity=${ratio < 0.5 ? '<0.5' : ratio < 1 ? '0.5-1' : ratio < 2 ? '1-2' : ratio < 4 ? '2-4' : '4+'}`;
}

/** A popularity table as a lookup from name to mentions (empty without a table). */
export function popularityCounts(table: PopularityTable | undefined): Map<string, number> {
  return new Map(table === undefined ? [] : table.names.map((name, index) => [name, table.counts[index]!]));
}

/**
 * The popularity table of `createPopularityEncoder`, from training task texts: how many distinct
 * texts mention each name. Names mentioned once are dropped (they read like unseen names), as are
 * names longer than `MAX_POPULARITY_NAME_LENGTH`, and at most `MAX_POPULARITY_NAMES` are kept, the
 * most mentioned first (ties by name), so the table, which is stored in the model file, stays
 * bounded. Linear in the total text length.
 */
export function fitPopularity(taskTexts: Iterable<string>): PopularityTable {
  const mentions = new Map<string, number>();
  const seen = new Set<string>();
  for (const text of taskTexts) {
    if (seen.has(text)) continue;
    seen.add(text);
    for (const name of taskNames(text)) if (name.length <= MAX_POPULARITY_NAME_LENGTH) mentions.set(name, (mentions.get(name) ?? 0) + 1);
  }
  const kept = [...mentions].filter(([, count]) => count > 1).sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_POPULARITY_NAMES);
  return { tasks: seen.size, names: kept.map(([name]) => name), counts: kept.map(([, count]) => count) };
}
