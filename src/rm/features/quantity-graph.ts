/**
 * What the statements of a word problem say about how its asked quantity is computed, read from
 * the text alone (issue 21): which quantities each sentence defines from which others, which
 * sentences cast doubt on a value (a note, an old label), and what the question asks. From that
 * graph: how deep the asked quantity's chain of relations goes, how many independent parts it
 * combines (parts that share no worked quantity, which a decomposition can keep apart), how many
 * statements it needs and how many it does not (distractors), and whether a doubted statement
 * names a quantity on the asked quantity's path (a trap a critic can catch).
 *
 * A quantity is a phrase "<two words> in <Name>'s <container>" ("spotted coins in Oscar's jar",
 * "How many striped tickets are in Zoe's bucket") or "<Name>'s <container> holds <n> <two
 * words>". Text that names none (a multi-hop question, GSM8K prose) gives an empty reading, and
 * the task shape then says `quantities=0`. Linear in the text: the patterns are anchored on
 * fixed words and never backtrack over more than a few words.
 */

/** What the reader found; empty (`quantities` 0) for text without quantity phrases. */
export interface QuantityReading {
  /** Distinct quantities mentioned. */
  quantities: number;
  /** Quantities the question asks for. */
  asked: number;
  /** Longest chain of relations below an asked quantity (a given value is depth 0; unknown inputs count as given). */
  depth: number;
  /** Independent parts the asked quantities combine (1 for a single chain; 0 when nothing is asked or defined). */
  parts: number;
  /** Statements the asked quantities need (their own and everything below them). */
  needed: number;
  /** Defining statements the answer does not need. */
  unused: number;
  /** Statements that cast doubt on a value ("A note claims that ...", "An old label says ..."). */
  doubted: number;
  /** Doubted statements about a quantity on an asked quantity's path. */
  doubtedOnPath: number;
}

const EMPTY: QuantityReading = { quantities: 0, asked: 0, depth: 0, parts: 0, needed: 0, unused: 0, doubted: 0, doubtedOnPath: 0 };

/** "<w> <w> [are ]in <Name>'s <container>": the two words, owner and container make the key. */
const QUANTITY_IN = /\b([a-z]+) ([a-z]+) (?:are |is )?in ([A-Z][a-z]+)['’]s ([a-z]+)/g;
/** "<Name>'s <container> holds <n> <w> <w>". */
const QUANTITY_HOLDS = /\b([A-Z][a-z]+)['’]s ([a-z]+) (?:holds|contains|has) [\d.,]+ ([a-z]+) ([a-z]+)/g;
/** Words of a statement that casts doubt on its own value. */
const DOUBT = /\b(?:note|notes|claims?|claimed|label|rumou?r|rumou?red|reportedly|allegedly|supposedly|out of date|outdated|before the last)\b/i;
const SENTENCE = /[^.?!]+[.?!]?/g;
/** Defining statements kept at most (later ones are ignored): the depth walk recurses once per statement on a chain, so a hostile text cannot exhaust the stack. */
const MAX_STATEMENTS = 2000;

interface Mention {
  key: string;
  index: number;
}

function mentions(sentence: string): string[] {
  const found: Mention[] = [];
  for (const match of sentence.matchAll(QUANTITY_IN)) found.push({ key: `${match[1]} ${match[2]}|${match[3]}|${match[4]}`, index: match.index });
  for (const match of sentence.matchAll(QUANTITY_HOLDS)) found.push({ key: `${match[3]} ${match[4]}|${match[1]}|${match[2]}`, index: match.index });
  return found.sort((a, b) => a.index - b.index).map((mention) => mention.key);
}

/**
 * Reads the quantity graph of a word problem.
 *
 * @example
 * readQuantities("There are 3 red pens in Ann's box. The number of blue pens in Bo's bag is 2 times the number of red pens in Ann's box. How many blue pens are in Bo's bag?")
 * // { quantities: 2, asked: 1, depth: 1, parts: 1, needed: 2, unused: 0, doubted: 0, doubtedOnPath: 0 }
 */
export function readQuantities(text: string): QuantityReading {
  /** Each defined quantity's inputs (empty for a given value). */
  const inputs = new Map<string, string[]>();
  const doubtedKeys: string[] = [];
  const asked: string[] = [];
  const all = new Set<string>();
  for (const match of text.matchAll(SENTENCE)) {
    const sentence = match[0].trim();
    const keys = mentions(sentence);
    if (keys.length === 0) continue;
    for (const key of keys) all.add(key);
    if (sentence.endsWith('?')) asked.push(...keys);
    else if (DOUBT.test(sentence)) doubtedKeys.push(keys[0]!);
    else if (!inputs.has(keys[0]!) && inputs.size < MAX_STATEMENTS) inputs.set(keys[0]!, keys.slice(1));
  }
  if (all.size === 0) return EMPTY;
  const targets = [...new Set(asked)];
  // Depth and needed statements by a walk from the targets; a cycle (not a well-formed problem) stops at the revisit.
  const depthOf = new Map<string, number>();
  const needed = new Set<string>();
  const depth = (key: string, visiting: Set<string>): number => {
    const known = depthOf.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key)) return 0;
    const from = inputs.get(key);
    if (from === undefined) return 0;
    needed.add(key);
    visiting.add(key);
    let deepest = -1;
    for (const input of from) deepest = Math.max(deepest, depth(input, visiting));
    visiting.delete(key);
    const value = deepest + 1;
    depthOf.set(key, value);
    return value;
  };
  let deepest = 0;
  for (const target of targets) deepest = Math.max(deepest, depth(target, new Set()));
  return {
    quantities: all.size,
    asked: targets.length,
    depth: deepest,
    parts: targets.length === 0 ? 0 : independentParts(targets, inputs, needed),
    needed: needed.size,
    unused: inputs.size - needed.size,
    doubted: doubtedKeys.length,
    doubtedOnPath: doubtedKeys.filter((key) => needed.has(key) || targets.includes(key)).length,
  };
}

/**
 * The independent parts below the targets: the needed statements other than the targets' own,
 * grouped so that groups share no quantity (worked or given). One chain is 1; a target that
 * combines two unrelated sub-computations is 2.
 */
function independentParts(targets: readonly string[], inputs: ReadonlyMap<string, readonly string[]>, needed: ReadonlySet<string>): number {
  const asked = new Set(targets);
  const below = [...needed].filter((key) => !asked.has(key) && (inputs.get(key)?.length ?? 0) > 0);
  if (below.length === 0) return 1;
  const parent = new Map<string, string>();
  const find = (key: string): string => {
    let root = key;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(key, root);
    return root;
  };
  for (const key of below) parent.set(key, key);
  for (const key of below) {
    for (const input of inputs.get(key) ?? []) {
      if (!parent.has(input)) parent.set(input, input);
      const a = find(key);
      const b = find(input);
      if (a !== b) parent.set(a, b);
    }
  }
  return Math.max(1, new Set(below.map(find)).size);
}
