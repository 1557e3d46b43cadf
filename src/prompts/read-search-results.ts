import { BLOCK_PROMPTS } from './prompt-templates.js';

/** A document as the search loop showed it to the model. */
export interface ShownDocument {
  id: string;
  title: string;
  text: string;
}

const ID_MARK = BLOCK_PROMPTS.searchResults.idMark;
const TRUNCATION_MARK = BLOCK_PROMPTS.searchResults.cutEnd;

/**
 * Reads the content of one `Search results:` section: per document a `[<i>] <title> (id: <id>)`
 * line, then its text up to the next such line. `(no results)` and `(search failed: ...)` give
 * no documents. Lines are matched by hand (no backtracking regex), so this is linear even on
 * hostile text; the text loses the ` [...]` mark the prompt adds to cut documents.
 */
export function readSearchResults(content: string): ShownDocument[] {
  const documents: ShownDocument[] = [];
  let current: { id: string; title: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    let text = current.lines.join('\n').trim();
    if (text.endsWith(TRUNCATION_MARK)) text = text.slice(0, -TRUNCATION_MARK.length);
    documents.push({ id: current.id, title: current.title, text });
    current = undefined;
  };
  for (const line of content.split('\n')) {
    const header = readHeader(line);
    if (header !== undefined) {
      flush();
      current = { ...header, lines: [] };
    } else if (current !== undefined) {
      current.lines.push(line);
    }
  }
  flush();
  return documents;
}

/** `[3] Some title (id: doc-7)` -> {title, id}; undefined for any other line. */
function readHeader(rawLine: string): { id: string; title: string } | undefined {
  const line = rawLine.trimEnd();
  if (!line.startsWith('[') || !line.endsWith(')')) return undefined;
  const close = line.indexOf('] ');
  if (close < 2) return undefined;
  for (let index = 1; index < close; index++) {
    const code = line.charCodeAt(index);
    if (code < 48 || code > 57) return undefined;
  }
  // The id is the last parenthesis group, so titles may contain ` (id: ` themselves.
  const mark = line.lastIndexOf(ID_MARK);
  if (mark < close) return undefined;
  const id = line.slice(mark + ID_MARK.length, -1);
  if (id === '') return undefined;
  return { id, title: line.slice(close + 2, mark) };
}
