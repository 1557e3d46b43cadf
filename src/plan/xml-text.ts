/**
 * Text helpers for the XML plan format: a linear pre-pass that keeps the tokenizer from
 * mistaking `x<y` for a tag, entity decoding for element content, and escaping for rendering.
 */

export const isNameStart = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
export const isNameChar = (code: number) => isNameStart(code) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 58;
export const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

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
  const named = NAMED_ENTITIES[body];
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
