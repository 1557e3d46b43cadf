import { answerTag } from '../../prompts/index.js';

/** Reasoning lines kept in a reply; longer chains keep their head and tail, so stored responses stay small. */
export const MAX_REASONING_LINES = 8;
const HEAD_LINES = 3;

/** A reply as a model writes it: short reasoning lines, then the answer in `<answer>` tags. */
export function writeAnswerReply(reasoning: readonly string[], answer: string): string {
  return `${shortenReasoning(reasoning).join('\n')}\n${answerTag(answer)}`;
}

/** Keeps at most MAX_REASONING_LINES lines: the first few, a marker, and the last ones. */
export function shortenReasoning(reasoning: readonly string[]): string[] {
  if (reasoning.length <= MAX_REASONING_LINES) return [...reasoning];
  const tailLines = MAX_REASONING_LINES - HEAD_LINES - 1;
  const omitted = reasoning.length - HEAD_LINES - tailLines;
  return [...reasoning.slice(0, HEAD_LINES), `(${omitted} more steps)`, ...reasoning.slice(reasoning.length - tailLines)];
}
