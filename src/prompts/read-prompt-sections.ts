import { BLOCK_PROMPTS } from './prompt-templates.js';

/** The header-delimited sections of one user message (as block-prompts.ts writes it; the headers are BLOCK_PROMPTS'). */
export interface MessageSections {
  /** Inline headers by name without the colon (`Step`, `Role`, `Round`, `Query`, `Iterations left`); first occurrence wins. */
  inline: Map<string, string>;
  /** Block headers (`Sub-task:` ...) to their trimmed content; first occurrence wins. */
  blocks: Map<string, string>;
  /** Content of every `Search results:` section, in order. */
  searchResults: string[];
}

const BLOCK_HEADERS: ReadonlySet<string> = new Set(Object.values(BLOCK_PROMPTS.blockHeaders));
const SEARCH_RESULTS = BLOCK_PROMPTS.blockHeaders.searchResults;
const STEP_HEADER = BLOCK_PROMPTS.stepHeader;
const INLINE_HEADERS: readonly string[] = Object.values(BLOCK_PROMPTS.inlineHeaders);

/**
 * Splits a user message into its sections in one pass over its lines. A block header counts
 * only at the start of a section (first line or after a blank line), so quoted text inside a
 * block (a previous answer, another agent's reasoning) may contain blank lines and is kept
 * whole unless a blank line is followed by a header line. `Step:` counts only on the first
 * line, so a sub-task that happens to contain `Step: ...` cannot change the step kind.
 */
export function readPromptSections(content: string): MessageSections {
  const sections: MessageSections = { inline: new Map(), blocks: new Map(), searchResults: [] };
  const lines = content.split('\n');
  let header: string | undefined;
  let body: string[] = [];
  // True while the current section is made of inline header lines (e.g. `Role:` then `Round:`).
  let inInlineSection = false;
  let sectionStart = true;
  const close = (): void => {
    if (header === undefined) return;
    const text = body.join('\n').trim();
    if (header === SEARCH_RESULTS) sections.searchResults.push(text);
    else if (!sections.blocks.has(header)) sections.blocks.set(header, text);
    header = undefined;
    body = [];
  };
  lines.forEach((rawLine, index) => {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (index === 0 && line.startsWith(STEP_HEADER)) {
      sections.inline.set(STEP_HEADER.slice(0, -1), line.slice(STEP_HEADER.length).trim());
      inInlineSection = true;
      sectionStart = false;
      return;
    }
    const blank = line.trim() === '';
    if ((sectionStart || inInlineSection) && BLOCK_HEADERS.has(line.trimEnd())) {
      close();
      header = line.trimEnd();
      inInlineSection = false;
    } else if ((sectionStart || inInlineSection) && !blank && readInline(line, sections.inline)) {
      close();
      inInlineSection = true;
    } else if (header !== undefined) {
      body.push(line);
    } else if (!blank) {
      inInlineSection = false;
    }
    sectionStart = blank;
  });
  close();
  return sections;
}

/** Records `Name: value` when the line is a known inline header; false otherwise. */
function readInline(line: string, inline: Map<string, string>): boolean {
  for (const name of INLINE_HEADERS) {
    if (line.length > name.length && line.startsWith(name) && line.charCodeAt(name.length) === 58 /* ':' */) {
      if (!inline.has(name)) inline.set(name, line.slice(name.length + 1).trim());
      return true;
    }
  }
  return false;
}
