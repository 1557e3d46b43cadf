import { Parser } from 'htmlparser2';
import { decodeXmlText, escapeStrayAngles } from './xml-text.js';

/** An element of plan XML. Content is kept as source offsets so text is read back exactly. */
export interface XmlElement {
  /** Tag name, lowercased (`<Agent_ID>` and `<agent_id>` are the same tag). */
  name: string;
  children: XmlElement[];
  /** Offset of the `<` of the opening tag. */
  start: number;
  contentStart: number;
  contentEnd: number;
  /** False when the closing tag was missing and the tokenizer closed the element implicitly. */
  closed: boolean;
  /** Still open when the text ended (the output stopped inside it). */
  openAtEnd: boolean;
}

export interface XmlTree {
  root: XmlElement;
  /** The text the offsets refer to (the input after stray `<` were escaped). */
  source: string;
  /** Reading stopped because tags nested deeper than MAX_XML_DEPTH (closing tags are missing). */
  tooDeep: boolean;
  /** Reading stopped because a tag named in `tagLimits` occurred more often than its limit. */
  overLimit?: { name: string; limit: number };
}

/** Bounds on how often tags may occur; reading stops soon after one is passed. */
export type XmlTagLimits = ReadonlyMap<string, number>;

/**
 * Plans nest a few levels (agent > required_arguments > param > item). htmlparser2 keeps its
 * open-tag stack with `unshift`, so thousands of unclosed tags would cost quadratic time;
 * reading stops once the depth passes this bound.
 */
export const MAX_XML_DEPTH = 256;
/** Text is fed to the tokenizer in chunks so the depth bound is checked as reading goes. */
const CHUNK_CHARS = 16_384;

/**
 * Tokenises plan XML with htmlparser2 in XML mode and builds an element tree. Never fails:
 * unclosed tags are closed where their parent closes (or at the end), stray closing tags are
 * ignored, and text outside tags (prose around the plan, code fences) belongs to no element.
 * Tags named in `tagLimits` are counted wherever they stand (inside text tags too: no real
 * plan comes near the limits); past a limit reading stops and `overLimit` says which.
 */
export function parseXmlTree(text: string, tagLimits: XmlTagLimits = new Map()): XmlTree {
  const source = escapeStrayAngles(text);
  const root: XmlElement = { name: '#root', children: [], start: 0, contentStart: 0, contentEnd: source.length, closed: true, openAtEnd: false };
  const stack: XmlElement[] = [root];
  const tagCounts = new Map<string, number>();
  let overLimit: XmlTree['overLimit'];
  let ending = false;
  const parser = new Parser(
    {
      onopentagname(name) {
        const parent = stack[stack.length - 1] ?? root;
        const element: XmlElement = { name, children: [], start: parser.startIndex, contentStart: -1, contentEnd: -1, closed: false, openAtEnd: false };
        parent.children.push(element);
        stack.push(element);
        const limit = tagLimits.get(name);
        if (limit === undefined) return;
        const count = (tagCounts.get(name) ?? 0) + 1;
        tagCounts.set(name, count);
        if (count > limit) overLimit ??= { name, limit };
      },
      onopentag() {
        const element = stack[stack.length - 1];
        if (element) element.contentStart = parser.endIndex + 1;
      },
      onclosetag(_name, isImplied) {
        const element = stack.pop();
        if (!element || element === root) return;
        const atEnd = isImplied && ending;
        element.contentEnd = Math.max(element.contentStart, atEnd ? source.length : parser.startIndex);
        element.closed = !isImplied;
        element.openAtEnd = atEnd;
      },
    },
    { xmlMode: true, lowerCaseTags: true, decodeEntities: false },
  );
  let tooDeep = false;
  for (let offset = 0; offset < source.length && !tooDeep && !overLimit; offset += CHUNK_CHARS) {
    parser.write(source.slice(offset, offset + CHUNK_CHARS));
    tooDeep = stack.length > MAX_XML_DEPTH;
  }
  ending = true;
  if (!tooDeep && !overLimit) parser.end();
  return overLimit ? { root, source, tooDeep, overLimit } : { root, source, tooDeep };
}

/** An element's content as text: entities decoded, nested tags kept as written, trimmed. */
export function elementText(tree: XmlTree, element: XmlElement): string {
  return decodeXmlText(tree.source.slice(element.contentStart, element.contentEnd)).trim();
}

/**
 * Elements whose name is in `names`, below `element`, in document order. Does not descend into
 * elements named in `stopAt` (text-holding tags such as `agent_input`). It does descend into a
 * match, so an `<agent>` left unclosed before the next `<agent>` (which the tokenizer then nests
 * inside it) is still found.
 */
export function findElements(element: XmlElement, names: ReadonlySet<string>, stopAt: ReadonlySet<string>): XmlElement[] {
  const found: XmlElement[] = [];
  const pending = [...element.children].reverse();
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (names.has(current.name)) found.push(current);
    if (!stopAt.has(current.name)) {
      for (let index = current.children.length - 1; index >= 0; index--) pending.push(current.children[index]!);
    }
  }
  return found;
}

/**
 * Gives back structure swallowed by an element whose closing tag is missing. The tokenizer
 * nests everything after an unclosed tag inside it: an unclosed `<thinking>` would hold the
 * whole plan, an `<agent>` without `</agent>` the next agent and the edges. `endedBy` maps a
 * tag to the tags that cannot stand inside it; for each unclosed element, its children from
 * the first such one on are moved out to follow it, and its content ends where that child
 * begins (`'any'`: at its first child, as MAS-Orchestra reads an unclosed tag "until the next
 * tag"). Such an element is not open at the end of the text: the plan went on after it.
 */
export function liftOutOfUnclosed(element: XmlElement, endedBy: ReadonlyMap<string, ReadonlySet<string> | 'any'>): void {
  for (let index = 0; index < element.children.length; index++) {
    const child = element.children[index]!;
    const enders = child.closed ? undefined : endedBy.get(child.name);
    if (enders !== undefined) {
      const first = enders === 'any' ? (child.children.length > 0 ? 0 : -1) : child.children.findIndex((grandchild) => enders.has(grandchild.name));
      if (first !== -1) {
        const lifted = child.children.splice(first);
        child.contentEnd = Math.max(child.contentStart, lifted[0]!.start);
        child.openAtEnd = false;
        element.children.splice(index + 1, 0, ...lifted);
      }
    }
    liftOutOfUnclosed(child, endedBy);
  }
}

/** The elements still open when the text ended, outermost first (the output stopped inside them). */
export function openAtEnd(root: XmlElement): XmlElement[] {
  const chain: XmlElement[] = [];
  for (let current = root.children.at(-1); current !== undefined && current.openAtEnd; current = current.children.at(-1)) chain.push(current);
  return chain;
}
