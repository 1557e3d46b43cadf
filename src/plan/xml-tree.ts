/**
 * The XML side's tokenizer: text helpers (a linear pre-pass that keeps `x<y` from being read
 * as a tag, entity decoding for element content, escaping for rendering) and the element tree.
 */
import { Parser } from 'htmlparser2';
import { ownEntry } from '../core/index.js';

const isNameStart = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const isNameChar = (code: number) => isNameStart(code) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 58;
const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Length of the tag starting at `start` (`<name>`, `</name>`, `<name/>`, no attributes), or 0. */
function tagLength(text: string, start: number): number {
  let index = start + 1;
  if (text.charCodeAt(index) === 47) index++; // '/'
  if (!isNameStart(text.charCodeAt(index))) return 0;
  while (index < text.length && isNameChar(text.charCodeAt(index))) index++;
  while (index < text.length && isSpace(text.charCodeAt(index))) index++;
  if (text.charCodeAt(index) === 47 && text.charCodeAt(start + 1) !== 47) index++;
  return text.charCodeAt(index) === 62 ? index - start + 1 : 0; // '>'
}

/**
 * Escapes every `<` that does not start a plain tag (`<name>`, `</name>`, `<name/>`), a comment
 * or a CDATA section, so text such as `if a<b then` or `x <= 3` stays text. Plan tags never
 * carry attributes, so requiring their absence is what keeps prose and code from becoming tags.
 */
export function escapeStrayAngles(text: string): string {
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index + 1)) {
    // A comment or CDATA section is skipped whole: a `<` inside it (`x<3`) is its text, not a tag.
    const section = text.startsWith('<!--', index) ? '-->' : text.startsWith('<![CDATA[', index) ? ']]>' : undefined;
    if (section !== undefined) {
      const end = text.indexOf(section, index + 4);
      if (end === -1) break;
      index = end + section.length - 1;
      continue;
    }
    if (tagLength(text, index) > 0) continue;
    parts.push(text.slice(copiedUpTo, index), '&lt;');
    copiedUpTo = index + 1;
  }
  parts.push(text.slice(copiedUpTo));
  return parts.join('');
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const MAX_ENTITY_LENGTH = 12;

/**
 * Decodes the XML entities (`&lt;`, `&#65;`, `&#x41;`), unwraps CDATA sections and drops
 * comments. A `&` that starts no entity (as in `AT&T`) is kept as written.
 */
export function decodeXmlText(text: string): string {
  let nextAngle = text.indexOf('<');
  let nextAmpersand = text.indexOf('&');
  if (nextAngle === -1 && nextAmpersand === -1) return text;
  const parts: string[] = [];
  let copiedUpTo = 0;
  let index = 0;
  // Jumps from one `<` or `&` to the next; everything between them is copied as it is.
  for (;;) {
    if (nextAngle !== -1 && nextAngle < index) nextAngle = text.indexOf('<', index);
    if (nextAmpersand !== -1 && nextAmpersand < index) nextAmpersand = text.indexOf('&', index);
    if (nextAngle === -1 && nextAmpersand === -1) break;
    index = nextAngle === -1 ? nextAmpersand : nextAmpersand === -1 ? nextAngle : Math.min(nextAngle, nextAmpersand);
    const code = text.charCodeAt(index);
    let replacement: string | undefined;
    let resumeAt = index + 1;
    if (code === 60 && text.startsWith('<![CDATA[', index)) {
      const end = text.indexOf(']]>', index + 9);
      replacement = text.slice(index + 9, end === -1 ? text.length : end);
      resumeAt = end === -1 ? text.length : end + 3;
    } else if (code === 60 && text.startsWith('<!--', index)) {
      const end = text.indexOf('-->', index + 4);
      replacement = '';
      resumeAt = end === -1 ? text.length : end + 3;
    } else if (code === 38) {
      // Entities are short, so only a bounded window is searched: linear even for `&&&&...`.
      const semicolon = text.slice(index + 1, index + 1 + MAX_ENTITY_LENGTH).indexOf(';');
      replacement = semicolon === -1 ? undefined : decodeEntity(text.slice(index + 1, index + 1 + semicolon));
      resumeAt = replacement === undefined ? index + 1 : index + semicolon + 2;
    }
    if (replacement !== undefined) {
      parts.push(text.slice(copiedUpTo, index), replacement);
      copiedUpTo = resumeAt;
    }
    index = resumeAt;
  }
  if (copiedUpTo === 0) return text;
  parts.push(text.slice(copiedUpTo));
  return parts.join('');
}

function decodeEntity(body: string): string | undefined {
  const named = ownEntry(NAMED_ENTITIES, body);
  if (named !== undefined) return named;
  if (body.startsWith('#')) {
    const hex = body[1] === 'x' || body[1] === 'X';
    const digits = body.slice(hex ? 2 : 1);
    if (digits === '' || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
    const codePoint = Number.parseInt(digits, hex ? 16 : 10);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : undefined;
  }
  return undefined;
}

/** Escapes text for element content so that `decodeXmlText` gives it back exactly. */
export function escapeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

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
 * Tokenises plan XML and builds an element tree. Never fails: unclosed tags are closed where
 * their parent closes (or at the end), stray closing tags are ignored, and text outside tags
 * (prose around the plan, code fences) belongs to no element. Tags named in `tagLimits` are
 * counted wherever they stand (inside text tags too: no real plan comes near the limits); past
 * a limit reading stops and `overLimit` says which.
 *
 * Text made of plain tags (every plan an orchestrator writes) is read in one pass by
 * `readPlainTree`; text it does not model (nesting past MAX_XML_DEPTH, a tag limit passed, the
 * short comment `<!-->`) goes through htmlparser2 in XML mode, whose reading the fast pass
 * reproduces exactly where it applies.
 */
export function parseXmlTree(text: string, tagLimits: XmlTagLimits = new Map()): XmlTree {
  return readPlainTree(text, tagLimits) ?? readTreeWithHtmlparser(text, tagLimits);
}

const newElement = (name: string, start: number): XmlElement => ({ name, children: [], start, contentStart: -1, contentEnd: -1, closed: false, openAtEnd: false });

/**
 * One pass over the raw text, giving the tree htmlparser2 gives for `escapeStrayAngles(text)`
 * (offsets then refer to `text` itself: a stray `<` is text either way, and `elementText` reads
 * `&lt;` and `<` alike). Element starts follow htmlparser2's `startIndex` bookkeeping, which
 * `liftOutOfUnclosed` relies on. Returns `undefined` for text it does not model, so that
 * htmlparser2 decides there: when tags nest deeper than MAX_XML_DEPTH or a tag limit is passed
 * (htmlparser2 is fed in chunks and checks the bounds between them) and at a short comment
 * (`<!-->`, `<!--->`), which htmlparser2 ends at once while `escapeStrayAngles` reads on.
 */
function readPlainTree(text: string, tagLimits: XmlTagLimits): XmlTree | undefined {
  const root: XmlElement = { name: '#root', children: [], start: 0, contentStart: 0, contentEnd: text.length, closed: true, openAtEnd: false };
  const stack: XmlElement[] = [root];
  const tagCounts = tagLimits.size > 0 ? new Map<string, number>() : undefined;
  /** htmlparser2's `startIndex`: where the node being read began, as its Parser counts it. */
  let startIndex = 0;
  /** Where the text after the last tag, comment or CDATA section begins. */
  let textStart = 0;
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index + 1)) {
    const next = text.charCodeAt(index + 1);
    if (next === 33 /* ! */) {
      const section = text.startsWith('<!--', index) ? '-->' : text.startsWith('<![CDATA[', index) ? ']]>' : undefined;
      if (section !== undefined) {
        if (section === '-->' && (text.charCodeAt(index + 4) === 62 || text.startsWith('->', index + 4))) return undefined;
        const end = text.indexOf(section, index + 4);
        // An unclosed comment or CDATA section holds the rest of the text: no tag follows.
        if (end === -1) break;
        index = end + section.length - 1;
        startIndex = index + 1;
        textStart = index + 1;
        continue;
      }
    }
    // A plain tag, as `tagLength` reads one: `<name>`, `</name>` or `<name/>`, space before `>` allowed.
    const closing = next === 47; // '/'
    const nameStart = closing ? index + 2 : index + 1;
    if (!isNameStart(text.charCodeAt(nameStart))) continue; // a stray `<`: text
    let nameEnd = nameStart;
    let upperCase = false;
    for (let code = text.charCodeAt(nameEnd); isNameChar(code); code = text.charCodeAt(++nameEnd)) upperCase ||= code <= 90 && code >= 65;
    let tagEnd = nameEnd;
    while (isSpace(text.charCodeAt(tagEnd))) tagEnd++;
    const selfClosing = !closing && text.charCodeAt(tagEnd) === 47;
    if (selfClosing) tagEnd++;
    if (text.charCodeAt(tagEnd) !== 62) continue; // no `>`: a stray `<`
    if (index > textStart) startIndex = index;
    if (closing) {
      // The innermost open element of that name; a lowercase name is compared in place, without a copy.
      const nameLength = nameEnd - nameStart;
      const name = upperCase ? text.slice(nameStart, nameEnd).toLowerCase() : undefined;
      let match = stack.length - 1;
      for (; match > 0; match--) {
        const open = stack[match]!.name;
        if (name === undefined ? open.length === nameLength && text.startsWith(open, nameStart) : open === name) break;
      }
      if (match > 0) {
        for (let depth = stack.length - 1; depth >= match; depth--) {
          const element = stack.pop()!;
          element.contentEnd = Math.max(element.contentStart, startIndex);
          element.closed = depth === match;
        }
      }
      // htmlparser2 reports a closing tag where its name ends (at `>` or the space before it).
      startIndex = nameEnd + 1;
    } else {
      const name = upperCase ? text.slice(nameStart, nameEnd).toLowerCase() : text.slice(nameStart, nameEnd);
      const element = newElement(name, startIndex);
      stack[stack.length - 1]!.children.push(element);
      stack.push(element);
      if (stack.length > MAX_XML_DEPTH) return undefined;
      const limit = tagCounts === undefined ? undefined : tagLimits.get(name);
      if (limit !== undefined) {
        const count = (tagCounts!.get(name) ?? 0) + 1;
        if (count > limit) return undefined;
        tagCounts!.set(name, count);
      }
      element.contentStart = tagEnd + 1;
      if (selfClosing) {
        // `<name/>`: htmlparser2 closes it as implied, with empty content.
        element.contentEnd = element.contentStart;
        stack.pop();
      }
      startIndex = tagEnd + 1;
    }
    textStart = tagEnd + 1;
    index = tagEnd;
  }
  for (let depth = stack.length - 1; depth > 0; depth--) {
    const element = stack[depth]!;
    element.contentEnd = Math.max(element.contentStart, text.length);
    element.openAtEnd = true;
  }
  return { root, source: text, tooDeep: false };
}

/** htmlparser2 in XML mode over the text with stray `<` escaped, fed in chunks so the bounds are checked as reading goes. */
function readTreeWithHtmlparser(text: string, tagLimits: XmlTagLimits): XmlTree {
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
        const element = newElement(name, parser.startIndex);
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
  collectElements(element.children, names, stopAt, found);
  return found;
}

function collectElements(children: readonly XmlElement[], names: ReadonlySet<string>, stopAt: ReadonlySet<string>, found: XmlElement[]): void {
  for (const child of children) {
    if (names.has(child.name)) found.push(child);
    if (child.children.length > 0 && !stopAt.has(child.name)) collectElements(child.children, names, stopAt, found);
  }
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
