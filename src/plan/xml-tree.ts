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
}

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
 */
export function parseXmlTree(text: string): XmlTree {
  const source = escapeStrayAngles(text);
  const root: XmlElement = { name: '#root', children: [], contentStart: 0, contentEnd: source.length, closed: true };
  const stack: XmlElement[] = [root];
  let ending = false;
  const parser = new Parser(
    {
      onopentagname(name) {
        const parent = stack[stack.length - 1] ?? root;
        const element: XmlElement = { name, children: [], contentStart: -1, contentEnd: -1, closed: false };
        parent.children.push(element);
        stack.push(element);
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
  for (let offset = 0; offset < source.length && !tooDeep; offset += CHUNK_CHARS) {
    parser.write(source.slice(offset, offset + CHUNK_CHARS));
    tooDeep = stack.length > MAX_XML_DEPTH;
  }
  ending = true;
  if (!tooDeep) parser.end();
  return { root, source, tooDeep };
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
