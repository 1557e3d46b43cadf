import { escapeHtml } from './escape-html.js';

/** A table cell: plain text, or text with a class (`good`, `bad`, `muted`, `strong`) and a tooltip. */
export type TableCell = string | { text: string; className?: string; title?: string };

export interface HtmlTableOptions {
  /** Table caption (plain text): what the table holds. */
  caption: string;
  /** Column headers; the first column holds row headers. */
  columns: readonly string[];
  rows: readonly (readonly TableCell[])[];
  /** Columns (by index) holding numbers: right-aligned with tabular figures. @default every column but the first */
  numericColumns?: readonly number[];
}

/**
 * An accessible HTML table from plain text: caption, column headers with `scope="col"`, the
 * first cell of each row a row header. Every text is escaped.
 *
 * @example
 * htmlTable({ caption: 'Pairs', columns: ['Source', 'Pairs'], rows: [['outcome', '2,140']] })
 */
export function htmlTable(options: HtmlTableOptions): string {
  const { caption, columns, rows } = options;
  const numeric = new Set(options.numericColumns ?? columns.map((_, index) => index).slice(1));
  const cellClass = (index: number, extra?: string) => {
    const classes = [numeric.has(index) ? 'num' : '', extra ?? ''].filter(Boolean).join(' ');
    return classes ? ` class="${escapeHtml(classes)}"` : '';
  };
  const head = columns.map((label, index) => `<th scope="col"${cellClass(index)}>${escapeHtml(label)}</th>`).join('');
  const body = rows
    .map((row) => {
      const cells = row.map((cell, index) => {
        const { text, className, title } = typeof cell === 'string' ? { text: cell, className: undefined, title: undefined } : cell;
        const tag = index === 0 ? 'th scope="row"' : 'td';
        const close = index === 0 ? 'th' : 'td';
        const tooltip = title === undefined ? '' : ` title="${escapeHtml(title)}"`;
        return `<${tag}${cellClass(index, className)}${tooltip}>${escapeHtml(text)}</${close}>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="table-wrap"><table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}
