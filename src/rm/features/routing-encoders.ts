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
