import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { HttpError, type HttpServer, isLoopbackHost, OrchrmError, sendJson, startHttpServer, UserError } from '../../core/index.js';
import { TaskOutcomeSchema } from '../../store/index.js';
import type { ViewerData } from './viewer-data.js';
import { renderViewerPage, viewerContentSecurityPolicy } from './viewer-page.js';

export interface StartViewerServerOptions {
  data: ViewerData;
  /** The database's name as the page shows it. */
  database: string;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (a free port; read it from the returned server) */
  port?: number;
  /** How the port is named in the error when it is taken. @default 'port' */
  portName?: string;
}

const text = (max: number) => z.string().min(1).max(max);
const TasksQuerySchema = z.strictObject({
  family: text(200).optional(),
  split: text(64).optional(),
  outcome: TaskOutcomeSchema.optional(),
  search: text(500).optional(),
  offset: z.coerce.number().int().min(0).max(1e9).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
const TaskQuerySchema = z.strictObject({ id: text(1000) });
const NodeQuerySchema = z.strictObject({ episode: text(200), position: z.coerce.number().int().min(0).max(1e6) });
const CompareQuerySchema = z.strictObject({ task: text(1000), a: text(200), b: text(200) });

/** Headers of every answer: nothing may frame, sniff or leak the page. */
const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

/**
 * Serves the episode viewer: `GET /` is the page, `GET /api/facets|tasks|task|node|compare` answer
 * JSON read from the database per request (one page of tasks, one task, one node), so a database
 * of any size opens at once. Read-only: every other method is refused. When bound to a loopback
 * address it answers only requests whose Host is a loopback name, so a web page elsewhere cannot
 * reach it through DNS rebinding.
 *
 * @example
 * const server = await startViewerServer({ data, database: 'demo.db', port: 8700 });
 * console.log(server.url); await server.close();
 */
export async function startViewerServer(options: StartViewerServerOptions): Promise<HttpServer> {
  const { data, host = '127.0.0.1', port = 0, portName = 'port' } = options;
  const facets = data.facets();
  const page = renderViewerPage({
    mode: 'served',
    database: options.database,
    facets,
    // The list as it first shows (counts are a snapshot anyway: see Store.taskIndex).
    firstPage: data.tasks({ limit: 50 }),
    note: `Read from the database a page at a time as you browse${data.model === undefined ? '' : `; plans scored by ${data.model.name}`}.`,
  });
  const loopbackOnly = isLoopbackHost(host);
  return startHttpServer({
    host,
    port,
    portName,
    serverOptions: { requestTimeout: 30_000, headersTimeout: 10_000 },
    handle: async (request, response) => {
      if (loopbackOnly && !isLoopbackHost(hostName(request.headers.host))) throw new HttpError(403, 'host_not_allowed', 'this viewer answers requests to 127.0.0.1 or localhost only');
      if (request.method !== 'GET' && request.method !== 'HEAD') throw new HttpError(405, 'method_not_allowed', 'the viewer is read-only: use GET', { headers: { allow: 'GET, HEAD' } });
      const url = new URL(request.url ?? '/', 'http://viewer.invalid');
      const query = Object.fromEntries(url.searchParams);
      switch (url.pathname) {
        case '/':
        case '/index.html':
          return sendPage(response, page);
        case '/api/facets':
          return sendJson(response, 200, facets, COMMON_HEADERS);
        case '/api/tasks':
          return sendJson(response, 200, data.tasks(parseQuery(TasksQuerySchema, query)), COMMON_HEADERS);
        case '/api/task': {
          const { id } = parseQuery(TaskQuerySchema, query);
          const task = await data.task(id);
          if (task === undefined) throw new HttpError(404, 'not_found', `no task ${id} in this database`);
          return sendJson(response, 200, task, COMMON_HEADERS);
        }
        case '/api/node': {
          const { episode, position } = parseQuery(NodeQuerySchema, query);
          const node = await data.node(episode, position);
          if (node === undefined) throw new HttpError(404, 'not_found', `no node ${position} of episode ${episode} in this database`);
          return sendJson(response, 200, node, COMMON_HEADERS);
        }
        case '/api/compare': {
          const { task, a, b } = parseQuery(CompareQuerySchema, query);
          const comparison = await data.compare(task, a, b);
          if (comparison === undefined) throw new HttpError(404, 'not_found', `episodes ${a} and ${b} are not both plans of task ${task}`);
          return sendJson(response, 200, comparison, COMMON_HEADERS);
        }
        default:
          throw new HttpError(404, 'not_found', `no ${url.pathname} here; the viewer is at /`);
      }
    },
    onError: (error, _request, response) => {
      if (error instanceof HttpError) return sendJson(response, error.status, { error: error.message, code: error.code }, { ...COMMON_HEADERS, ...error.details.headers });
      // A user error (a model that cannot explain) is the request's fault; anything else is ours.
      if (error instanceof UserError) return sendJson(response, 400, { error: error.message }, COMMON_HEADERS);
      const message = error instanceof OrchrmError ? error.message : 'internal error';
      process.stderr.write(`orchrm view: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      return sendJson(response, 500, { error: message }, COMMON_HEADERS);
    },
  });
}

function sendPage(response: ServerResponse, page: string): void {
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(page),
    'content-security-policy': viewerContentSecurityPolicy('served', 'header'),
    'x-frame-options': 'DENY',
    ...COMMON_HEADERS,
  });
  response.end(page);
}

function parseQuery<Schema extends z.ZodType>(schema: Schema, query: Record<string, string>): z.output<Schema> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new HttpError(400, 'bad_query', `query parameter ${issue.path.join('.') || '(unknown)'}: ${issue.message}`);
}

/** The host name of a Host header (`127.0.0.1:8700` -> `127.0.0.1`, `[::1]:80` -> `::1`). */
function hostName(header: string | undefined): string {
  if (header === undefined) return '';
  if (header.startsWith('[')) return header.slice(1, header.indexOf(']'));
  const colon = header.lastIndexOf(':');
  return colon === -1 ? header : header.slice(0, colon);
}
