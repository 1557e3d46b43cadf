import { Parser } from 'htmlparser2';
import { decodeXmlText, escapeStrayAngles } from './xml-text.js';

/** An element of plan XML. Content is kept as source offsets so text is read back exactly. */
export interface XmlElement {
  /** Tag name, lowercased (`<Agent_ID>` and `<agent_id>` are the same tag). */
  name: string;
  children: XmlElement[];
  contentStart: number;
  contentEnd: number;
  /** False when the closing tag was missing and the tokenizer closed the element implicitly. */
  closed: boolean;
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
  const root: XmlElement = { name: '#root', children: [], contentStart: 0, contentEnd: source.length, closed: true };
  const stack: XmlElement[] = [root];
  const tagCounts = new Map<string, number>();
  let overLimit: XmlTree['overLimit'];
  let ending = false;
  const parser = new Parser(
    {
      onopentagname(name) {
        const parent = stack[stack.length - 1] ?? root;
        const element: XmlElement = { name, children: [], contentStart: -1, contentEnd: -1, closed: false };
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
        const end = isImplied && ending ? source.length : parser.startIndex;
        element.contentEnd = Math.max(element.contentStart, end);
        element.closed = !isImplied;
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
