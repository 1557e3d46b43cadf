/** Which plan format a text was read as; `unknown` when it holds neither. */
export type PlanTextFormat = 'json' | 'xml' | 'unknown';

/** Tags only an XML plan has. */
const STRONG_XML_MARKERS = ['<agent>', '<agent_id>', '<agent_name>', '<edge>', '<from>', '<required_arguments>', '<dom>', '<answer_node>'];
/** Tags a direct-answer XML plan may consist of, but which prose or JSON strings might also contain. */
const WEAK_XML_MARKERS = ['<answer>', '<final_answer>', '<direct_answer>', '<thinking>'];

export interface FormatGuess {
  /** The format to try first. */
  primary: PlanTextFormat;
  /** The format to try when the primary finds no plan at all. */
  fallback: PlanTextFormat;
}

/**
 * Guesses the plan format from markers: XML structure tags win (an XML plan's inputs may
 * contain braces, a JSON plan's strings rarely contain `<agent>`); otherwise JSON when there
 * is a brace, with XML as the fallback for direct answers like `<answer>42</answer>`.
 */
export function detectPlanFormat(text: string): FormatGuess {
  const lower = text.toLowerCase();
  const has = (markers: readonly string[]) => markers.some((marker) => lower.includes(marker));
  if (has(STRONG_XML_MARKERS)) return { primary: 'xml', fallback: 'json' };
  const weakXml = has(WEAK_XML_MARKERS);
  if (text.includes('{')) return { primary: 'json', fallback: weakXml ? 'xml' : 'unknown' };
  return weakXml ? { primary: 'xml', fallback: 'unknown' } : { primary: 'unknown', fallback: 'unknown' };
}
