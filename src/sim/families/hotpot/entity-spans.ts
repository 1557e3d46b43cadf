/** Capitalised words that open sentences rather than name things. */
const SENTENCE_WORDS = new Set([
  'A', 'An', 'After', 'As', 'At', 'Before', 'But', 'By', 'During', 'For', 'From', 'He', 'Her', 'His', 'However', 'I', 'If', 'In', 'It', 'Its',
  'On', 'She', 'Since', 'That', 'The', 'Their', 'There', 'These', 'They', 'This', 'Those', 'Though', 'To', 'When', 'Where', 'Which', 'While', 'Who', 'What', 'With',
]);
/** Lower-case words allowed inside a name (`Bank of England`, `Ludwig van Beethoven`). */
const CONNECTORS = new Set(['of', 'the', 'de', 'da', 'del', 'van', 'von', 'la', 'le', 'du', 'and']);
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;

/**
 * Entity-like spans of a text: runs of capitalised words, joined across connectors such as `of`,
 * with a sentence-opening word (`The`, `In`) dropped when it stands alone or leads the run.
 * Years and other numbers are spans too. Used for plausible wrong answers.
 *
 * @example
 * entitySpans('In 1993 the Bank of England hired Ada Lovelace.'); // ['1993', 'Bank of England', 'Ada Lovelace']
 */
export function entitySpans(text: string): string[] {
  const spans: string[] = [];
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && CONNECTORS.has(run[run.length - 1] as string)) run.pop();
    if (run.length > 1 && SENTENCE_WORDS.has(run[0] as string)) run.shift();
    if (run.length > 0 && !(run.length === 1 && SENTENCE_WORDS.has(run[0] as string))) spans.push(run.join(' '));
    run = [];
  };
  let lastEnd = 0;
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    // Punctuation between words (other than spaces) ends a name.
    if (run.length > 0 && /[^\s]/.test(text.slice(lastEnd, match.index))) flush();
    lastEnd = match.index + word.length;
    if (/^\d/.test(word)) {
      flush();
      spans.push(word.replace(/[.,]+$/, ''));
    } else if (/^\p{Lu}/u.test(word)) {
      run.push(word.replace(/[.]+$/, ''));
      // A trailing period ends the sentence, and the name with it.
      if (word.endsWith('.')) flush();
    } else if (run.length > 0 && CONNECTORS.has(word)) run.push(word);
    else flush();
  }
  flush();
  return spans;
}
