import { createHash } from 'node:crypto';
import { escapeHtml } from '../escape-html.js';
import { VIEWER_SCRIPT } from './viewer-script.js';
import { VIEWER_STYLES } from './viewer-styles.js';

/** What the page needs before its first request: where it reads from and what to say about it. */
export interface ViewerBoot {
  /** `served`: JSON pages from `api/` of its own origin. `file`: everything in `snapshot`. */
  mode: 'served' | 'file';
  /** The database's file name, shown in the header. */
  database: string;
  /** One sentence on what the page holds (served: the whole database; file: which tasks). */
  note: string;
  /** The file mode's data: see `ViewerSnapshot`. */
  snapshot?: unknown;
  /** Served mode: the filters' values, sent with the page to save a request. */
  facets?: unknown;
  /** Served mode: the first page of the unfiltered task list, sent with the page. */
  firstPage?: unknown;
}

/**
 * Serialises data into a `<script type="application/json">` block that no text can break out of:
 * `<`, `>` and `&` become \u escapes (so `</script>` and `<!--` never appear), as do U+2028 and
 * U+2029. JSON.parse reads the escapes back as the same characters.
 */
export function jsonForScriptBlock(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The hash the Content-Security-Policy names for the page's one script. */
const SCRIPT_HASH = `'sha256-${createHash('sha256').update(VIEWER_SCRIPT).digest('base64')}'`;

/**
 * The Content-Security-Policy of the page: its own inline script (by hash) and inline styles,
 * nothing else; a served page may also fetch JSON from its own origin, a file page nothing.
 */
export function viewerContentSecurityPolicy(mode: ViewerBoot['mode'], where: 'meta' | 'header' = 'meta'): string {
  const connect = mode === 'served' ? "connect-src 'self'" : "connect-src 'none'";
  // frame-ancestors is obeyed in a header only (a <meta> policy with it logs an error).
  const frames = where === 'header' ? "; frame-ancestors 'none'" : '';
  return `default-src 'none'; script-src ${SCRIPT_HASH}; style-src 'unsafe-inline'; img-src data:; ${connect}; base-uri 'none'; form-action 'none'${frames}`;
}

/**
 * The episode viewer as one HTML page: inline styles, one inline script, and in file mode the
 * data as a JSON block. It references nothing outside itself, and every text from the database
 * is placed by the script as text, never as markup.
 *
 * @example
 * const html = renderViewerPage({ mode: 'served', database: 'demo.db', note: '2,400 tasks' });
 */
export function renderViewerPage(boot: ViewerBoot): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(viewerContentSecurityPolicy(boot.mode))}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="orchrm view">
<title>${escapeHtml(`orchrm view: ${boot.database}`)}</title>
<style>${VIEWER_STYLES}</style>
</head>
<body>
<header class="top">
<h1>orchrm view <span class="database">${escapeHtml(boot.database)}</span></h1>
<p class="note" id="viewer-note"><span id="task-count"></span>. ${escapeHtml(boot.note)}</p>
</header>
<div class="layout">
<nav class="sidebar" aria-label="Tasks">
<form id="filters" class="filters" role="search"></form>
<ol id="task-list" class="task-list"></ol>
<div id="pager" class="pager"></div>
</nav>
<main id="task" class="task"><p class="note">Loading…</p></main>
</div>
<script type="application/json" id="viewer-boot">${jsonForScriptBlock(boot)}</script>
<script>${VIEWER_SCRIPT}</script>
</body>
</html>
`;
}
