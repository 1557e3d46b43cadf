import { escapeHtml } from '../escape-html.js';

/** A report section: `<section>` with an id (the table of contents links to it) and an `<h2>`. */
export function section(id: string, title: string, body: readonly string[]): string {
  return `<section id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">\n<h2 id="${escapeHtml(id)}-title">${escapeHtml(title)}</h2>\n${body.join('\n')}\n</section>`;
}

/** A paragraph of plain text. */
export function paragraph(text: string, className?: string): string {
  return `<p${className ? ` class="${escapeHtml(className)}"` : ''}>${escapeHtml(text)}</p>`;
}
