import { type Pair, type Plan, Rng } from '../core/index.js';
import { formatPlanXml } from '../plan/index.js';

const NOUNS = ['apple', 'train', 'river', 'city', 'company', 'painter', 'rocket', 'library', 'farmer', 'museum', 'bridge', 'novel', 'harbor', 'school', 'orchard', 'factory'];
const VERBS = ['bought', 'sold', 'built', 'visited', 'painted', 'carried', 'wrote', 'moved', 'counted', 'shipped', 'repaired', 'founded'];
const NAMES = ['Alice', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran', 'Hana', 'Ivo', 'Juno'];
const ROLES = ['Economist', 'Analyst', 'Historian', 'Skeptic', 'Engineer'];

export type SyntheticTaskKind = 'arithmetic' | 'lookup';

export interface SyntheticTask {
  id: string;
  kind: SyntheticTaskKind;
  question: string;
}

function sentence(rng: Rng, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) parts.push(rng.pick(index % 3 === 1 ? VERBS : NOUNS));
  return `${parts.join(' ')}.`;
}

/** A task text of about `words` words: arithmetic (numbers, "how many") or lookup (names, "who/where"). */
export function syntheticTask(rng: Rng, index: number, words = 60): SyntheticTask {
  const kind: SyntheticTaskKind = rng.chance(0.5) ? 'arithmetic' : 'lookup';
  const context: string[] = [];
  for (let used = 0; used < words - 12; used += 9) {
    context.push(kind === 'arithmetic' ? `${rng.pick(NAMES)} ${rng.pick(VERBS)} ${rng.int(2, 90)} ${rng.pick(NOUNS)}s and ${rng.int(2, 40)} more.` : `${rng.pick(NAMES)} ${rng.pick(VERBS)} the ${rng.pick(NOUNS)} near ${rng.pick(NAMES)}'s ${rng.pick(NOUNS)}.`);
  }
  const question = kind === 'arithmetic' ? `How many ${rng.pick(NOUNS)}s are left after ${rng.int(3, 30)} are ${rng.pick(VERBS)}?` : `Who ${rng.pick(VERBS)} the ${rng.pick(NOUNS)} that ${rng.pick(NAMES)} ${rng.pick(VERBS)}, and where?`;
  return { id: `task-${index}`, kind, question: `${context.join(' ')} ${question}` };
}

const BLOCK_PARAMS: Record<string, (rng: Rng) => Record<string, unknown>> = {
  cot: () => ({}),
  sc: (rng) => ({ samples: rng.pick([3, 5, 7]) }),
  reflexion: (rng) => ({ maxRounds: rng.int(1, 5) }),
  debate: (rng) => ({ roles: [rng.pick(ROLES), rng.pick(ROLES.slice(2))], rounds: rng.int(2, 4) }),
  search: (rng) => ({ topK: rng.pick([3, 5, 10]) }),
};

/** A valid chain-shaped plan of `nodes` blocks with inputs of about `inputWords` words each. */
export function syntheticPlan(rng: Rng, blocks: readonly string[], inputWords = 40): Plan {
  if (blocks.length === 0) return { dom: 'low', nodes: [], edges: [], directAnswer: String(rng.int(1, 99)) };
  const nodes = blocks.map((agent, index) => {
    const reference = index === 0 ? '' : ` Use \${N${index - 1}}.`;
    return { id: `N${index}`, agent, input: `${sentence(rng, inputWords)}${reference}`, params: BLOCK_PARAMS[agent]?.(rng) ?? {} };
  });
  const edges = nodes.slice(1).map((node, index) => ({ from: `N${index}`, to: node.id }));
  return { dom: nodes.length > 1 ? 'high' : 'low', nodes, edges, answer: `N${nodes.length - 1}` };
}

/**
 * The hidden quality rule of the synthetic world: self-consistency helps arithmetic, search
 * helps lookups, each extra node costs a little; invalid plans are worst. It is linear in the
 * `cross` and `structure` features, so pairs decided by it are separable.
 */
export function syntheticUtility(kind: SyntheticTaskKind, blocks: readonly string[] | undefined): number {
  if (blocks === undefined) return -10;
  const helpful = kind === 'arithmetic' ? 'sc' : 'search';
  return (blocks.includes(helpful) ? 3 : 0) - 0.25 * blocks.length;
}

export interface SyntheticPairsOptions {
  pairs: number;
  seed?: number;
  /** Plans sampled per task; pairs are formed among them, as among an orchestrator's samples. @default 8 */
  plansPerTask?: number;
  /** Most pairs taken per task. @default 16 */
  pairsPerTask?: number;
  /** Share of tasks in the validation split. @default 0.1 */
  validationShare?: number;
  /** Words per node input (plans of about 300 tokens on average at the default). @default 40 */
  inputWords?: number;
}

const BLOCK_CHOICES = ['cot', 'sc', 'reflexion', 'debate', 'search'];

/**
 * Win-lose pairs over synthetic tasks and plan texts (XML, about 5% invalid), decided by
 * `syntheticUtility`; ties are skipped. Like mined pairs, each task has a few sampled plans and
 * every plan takes part in several pairs. Deterministic under the seed; splits by task.
 */
export function syntheticPairs(options: SyntheticPairsOptions): Pair[] {
  const { pairs: wanted, seed = 0, plansPerTask = 8, pairsPerTask = 16, validationShare = 0.1, inputWords = 40 } = options;
  const rng = new Rng(seed);
  const pairs: Pair[] = [];
  for (let taskIndex = 0; pairs.length < wanted; taskIndex++) {
    const task = syntheticTask(rng, taskIndex);
    const split = rng.chance(validationShare) ? 'validation' : 'train';
    const plans = Array.from({ length: plansPerTask }, () => {
      if (rng.chance(0.05)) return { text: `<agent><agent_id>X</agent_id><agent_name>${rng.pick(['MagicAgent', 'cot'])}</agent_name></agent>`, utility: syntheticUtility(task.kind, undefined) };
      const blocks = Array.from({ length: rng.int(1, 5) }, () => rng.pick(BLOCK_CHOICES));
      return { text: formatPlanXml(syntheticPlan(rng, blocks, inputWords)), utility: syntheticUtility(task.kind, blocks) };
    });
    const candidates: [number, number][] = [];
    for (let a = 0; a < plans.length; a++) for (let b = a + 1; b < plans.length; b++) if (plans[a]!.utility !== plans[b]!.utility) candidates.push([a, b]);
    for (const [a, b] of rng.shuffle(candidates).slice(0, Math.min(pairsPerTask, wanted - pairs.length))) {
      const [winner, loser] = plans[a]!.utility > plans[b]!.utility ? [plans[a]!, plans[b]!] : [plans[b]!, plans[a]!];
      pairs.push({
        id: `pair-${pairs.length}`,
        datasetId: `synthetic-${seed}`,
        taskId: task.id,
        question: task.question,
        winner: { planText: winner.text },
        loser: { planText: loser.text },
        source: 'outcome',
        weight: 1,
        evidence: {},
        split,
      });
    }
  }
  return pairs;
}
