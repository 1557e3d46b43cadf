/** Which plan format a text was read as; `unknown` when it holds neither. */
export type PlanTextFormat = 'json' | 'xml' | 'unknown';

/** Tags only an XML plan has. */
const STRONG_XML_MARKERS: ReadonlySet<string> = new Set(['<agent>', '<agent_id>', '<agent_name>', '<edge>', '<from>', '<required_arguments>', '<dom>', '<answer_node>']);
/** Tags a direct-answer XML plan may consist of, but which prose or JSON strings might also contain. */
const WEAK_XML_MARKERS: ReadonlySet<string> = new Set(['<answer>', '<final_answer>', '<direct_answer>', '<thinking>']);
const LONGEST_MARKER = Math.max(...[...STRONG_XML_MARKERS, ...WEAK_XML_MARKERS].map((marker) => marker.length));

/**
 * Which markers the text holds, ignoring case: `strong` when a STRONG_XML_MARKERS tag occurs,
 * `weak` when only WEAK_XML_MARKERS ones do. Each `<` is looked at with the few characters
 * after it lowercased, which finds what lowercasing the whole text would (a character whose
 * lowercase is longer, `İ`, never completes a marker).
 */
function xmlMarkers(text: string): 'strong' | 'weak' | 'none' {
  let weak = false;
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index + 1)) {
    const head = text.slice(index, index + LONGEST_MARKER).toLowerCase();
    const close = head.indexOf('>');
    if (close === -1) continue;
    const tag = head.slice(0, close + 1);
    if (STRONG_XML_MARKERS.has(tag)) return 'strong';
    if (WEAK_XML_MARKERS.has(tag)) weak = true;
  }
  return weak ? 'weak' : 'none';
}

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
  const markers = xmlMarkers(text);
  if (markers === 'strong') return { primary: 'xml', fallback: 'json' };
  const weakXml = markers === 'weak';
  if (text.includes('{')) return { primary: 'json', fallback: weakXml ? 'xml' : 'unknown' };
  return weakXml ? { primary: 'xml', fallback: 'unknown' } : { primary: 'unknown', fallback: 'unknown' };
}
