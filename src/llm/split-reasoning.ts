/** A completion's text with the model's reasoning taken out. */
export interface SplitReasoning {
  /** What the model answered, without its reasoning; what plans and answers are read from. */
  text: string;
  /** The reasoning, when the text carried any. */
  reasoning?: string;
}

const OPEN_TAG = '<think>';
const CLOSE_TAG = '</think>';

/**
 * Takes `<think>…</think>` reasoning out of a completion's content, as reasoning models write
 * it when the server runs no reasoning parser (vLLM without `--reasoning-parser`, llama.cpp,
 * Ollama's raw mode, DeepSeek-R1 and Qwen3 distills):
 *
 * - leading `<think>…</think>` blocks become the reasoning; the rest is the text;
 * - a `</think>` with no opening tag before it (chat templates that put `<think>` in the prompt,
 *   as Qwen3's and DeepSeek-R1's do) ends the reasoning at that tag;
 * - an opening `<think>` that never closes (the model ran out of tokens while thinking) makes all
 *   of it reasoning and the text empty, so the caller sees that no answer came.
 *
 * Only `<think>` is read: MAS-Orchestra's plan format has a `<thinking>` element of its own,
 * which stays in the text.
 *
 * @example
 * splitReasoning('<think>2+2 is 4</think>\nAnswer: 4') // { text: 'Answer: 4', reasoning: '2+2 is 4' }
 */
export function splitReasoning(content: string): SplitReasoning {
  const parts: string[] = [];
  let rest = content;
  for (;;) {
    const trimmed = rest.trimStart();
    if (!trimmed.startsWith(OPEN_TAG)) break;
    const end = trimmed.indexOf(CLOSE_TAG, OPEN_TAG.length);
    if (end === -1) {
      parts.push(trimmed.slice(OPEN_TAG.length));
      rest = '';
      break;
    }
    parts.push(trimmed.slice(OPEN_TAG.length, end));
    rest = trimmed.slice(end + CLOSE_TAG.length);
  }
  if (parts.length === 0) {
    const close = rest.indexOf(CLOSE_TAG);
    if (close !== -1 && !rest.slice(0, close).includes(OPEN_TAG)) {
      parts.push(rest.slice(0, close));
      rest = rest.slice(close + CLOSE_TAG.length);
    }
  }
  if (parts.length === 0) return { text: content };
  const reasoning = parts.map((part) => part.trim()).filter((part) => part !== '').join('\n\n');
  const text = rest.trimStart();
  return reasoning === '' ? { text } : { text, reasoning };
}

/** Joins reasoning from a separate response field and from the content, dropping empty parts. */
export function joinReasoning(...parts: readonly (string | null | undefined)[]): string | undefined {
  const kept = parts.map((part) => part?.trim() ?? '').filter((part) => part !== '');
  return kept.length === 0 ? undefined : kept.join('\n\n');
}
