const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML element content and quoted attribute values. Every string that reaches
 * the report page from results.json goes through here: source and strategy names, verdicts and
 * configuration values are data, and data never becomes markup.
 *
 * @example
 * escapeHtml('<b>"rm" & co</b>') // '&lt;b&gt;&quot;rm&quot; &amp; co&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] as string);
}
