import { bearerTokenChecker, type EventSink, HttpError, type RewardModel } from '../core/index.js';
import { createTaskExtractor, type TaskSource } from './extract-task.js';
import { planOfQuery } from './plan-of-query.js';
import { checkBatchSize, GetRewardRequestSchema, parseJsonText, ScoreRequestSchema, validateBody } from './request-bodies.js';
import { scorePlans } from './score-plans.js';
import { createServerMetrics, PROMETHEUS_CONTENT_TYPE, type MetricRoute, type ServerMetrics, type UnscoredCode } from './server-metrics.js';

/**
 * Most plans (or OpenRLHF queries) one request may carry when the options name no limit:
 * 16384, twice the 8192 queries OpenRLHF 0.7.1-0.9.0 posts at once with
 * `--rollout_batch_size 1024 --n_samples_per_prompt 8`.
 */
export const DEFAULT_MAX_PLANS = 16_384;

/** One refused request, as a `request-refused` event carries it: enough to tell the client what to fix. */
export interface Refusal {
  method: string;
  path: string;
  route: MetricRoute;
  status: number;
  code: string;
  message: string;
  field?: string;
  remoteAddress?: string;
}

/** Sent for every refused request. */
export interface RequestRefusedEvent {
  type: 'request-refused';
  refusal: Refusal;
}

/** One `/get_reward` query that could not be scored as sent, and why (it was scored as an empty plan). */
export interface UnscoredQuery {
  index: number;
  code: UnscoredCode;
  message: string;
}

/** Sent for every `/get_reward` request with queries that could not be scored as sent; the request itself was answered 200. */
export interface QueriesUnscoredEvent {
  type: 'queries-unscored';
  queries: number;
  unscored: UnscoredQuery[];
  remoteAddress?: string;
}

/** Everything the reward app reports to its `events` sink. */
export type RewardAppEvent = RequestRefusedEvent | QueriesUnscoredEvent;

export interface RewardAppOptions {
  /** Scores every plan. */
  model: RewardModel;
  /** Bearer token every route but `GET /healthz` requires. @default none (no authentication) */
  token?: string;
  /** Most plans per `/v1/score` request, or queries per `/get_reward` request (413 beyond). @default 4096 */
  maxPlans?: number;
  /**
   * Where `/get_reward` reads each query's task: `auto` recognises orchrm's orchestrator prompt
   * and common chat templates, `prompt` takes the prompt verbatim, `label` the `labels` entry
   * (see `createTaskExtractor`). @default 'auto'
   */
  taskSource?: TaskSource;
  /** A regular expression whose group `task` (or first group) is the task inside each prompt; overrides `taskSource`. */
  taskPattern?: string;
  /**
   * A `request-refused` event for every refused request (4xx/5xx), e.g. to log it (OpenRLHF's
   * client drops error bodies), and a `queries-unscored` event for every `/get_reward` request
   * with queries scored as an empty plan.
   */
  events?: EventSink<RewardAppEvent>;
  /** Clock for latency metrics. @default performance.now @unit milliseconds */
  now?: () => number;
}

/** What the transport knows before reading the body. */
export interface AppRequestHead {
  method: string;
  /** Path, optionally with a query string (ignored). */
  path: string;
  /** Header names in any case. */
  headers?: Record<string, string | string[] | undefined>;
  /** The client's address, for the refusal log. */
  remoteAddress?: string;
}

export interface AppRequest extends AppRequestHead {
  /** The request body as text. */
  body?: string;
  /** When the request arrived, on the `now` clock. @default when `request` is called @unit milliseconds */
  startedAtMs?: number;
  /** Aborted when the client goes away, so the model can stop early. */
  signal?: AbortSignal;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** For error answers: the error's code and field, so the transport can name them in the status line. */
  refusal?: { code: string; field?: string };
}

/** The reward server's routes over plain request and response values; `startRewardServer` puts it on node:http. */
export interface RewardApp {
  readonly metrics: ServerMetrics;
  /** Answers one request (never throws: every failure becomes an error answer) and records it in the metrics. */
  request(input: AppRequest): Promise<AppResponse>;
  /** Route, method and token checks, run by the transport before it reads the body; the error to answer with, if any. */
  precheck(head: AppRequestHead): HttpError | undefined;
  /** Renders and records an error the transport found itself (body too large, too slow). */
  reject(head: AppRequestHead, error: HttpError, startedAtMs?: number): AppResponse;
  /** From now on `GET /healthz` answers 503, so load balancers stop sending traffic during shutdown. */
  startDraining(): void;
}

type Route = '/v1/score' | '/get_reward' | '/healthz' | '/metrics';
const ROUTE_METHODS: Record<Route, 'GET' | 'POST'> = { '/v1/score': 'POST', '/get_reward': 'POST', '/healthz': 'GET', '/metrics': 'GET' };
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * The reward server's request handling, independent of the transport so tests can call it in
 * process (as Hono's `app.request`):
 * - `POST /v1/score` `{"task", "plans": [...]}` -> `{"scores": [...]}`;
 * - `POST /get_reward` (OpenRLHF) `{"query", "prompts"?, "labels"?}` -> `{"rewards", "scores", "extra_logs"}`;
 * - `GET /healthz` -> `{"status": "ok", "model"}`; `GET /metrics` -> Prometheus text.
 *
 * @example
 * const app = createRewardApp({ model });
 * const response = await app.request({ method: 'POST', path: '/v1/score', body: JSON.stringify({ task: 'What is 2+2?', plans: [planText] }) });
 * JSON.parse(response.body).scores // [0.42]
 */
export function createRewardApp(options: RewardAppOptions): RewardApp {
  const { model, token, maxPlans = DEFAULT_MAX_PLANS, events, now = () => performance.now() } = options;
  const extractTask = createTaskExtractor({
    ...(options.taskSource !== undefined && { source: options.taskSource }),
    ...(options.taskPattern !== undefined && { pattern: options.taskPattern }),
  });
  const readsPrompt = options.taskSource !== 'label';
  const isAuthorized = token === undefined ? undefined : bearerTokenChecker(token);
  const metrics = createServerMetrics();
  let draining = false;
  // Heads that passed `precheck`: the transport prechecks before reading the body, and the same
  // object then comes back to `request`, which need not check it (and hash its token) again.
  const passed = new WeakSet<AppRequestHead>();

  function precheck(head: AppRequestHead): HttpError | undefined {
    const rejected = check(head);
    if (!rejected) passed.add(head);
    return rejected;
  }

  function check(head: AppRequestHead): HttpError | undefined {
    const path = pathOf(head.path);
    const route = routeOf(path);
    if (!route) {
      return new HttpError(404, 'not_found', `no route ${head.method} ${path}; this server serves POST /v1/score, POST /get_reward, GET /healthz and GET /metrics`);
    }
    const method = ROUTE_METHODS[route];
    if (head.method !== method) return new HttpError(405, 'method_not_allowed', `${head.method} is not allowed on ${route}; use ${method}`, { headers: { allow: method } });
    if (isAuthorized && route !== '/healthz' && !isAuthorized(headerValue(head.headers, 'authorization'))) {
      return new HttpError(401, 'unauthorized', 'missing or wrong bearer token; send the header "authorization: Bearer <token>" with the token the server was started with', {
        headers: { 'www-authenticate': 'Bearer realm="orchrm"' },
      });
    }
    return undefined;
  }

  async function handle(input: AppRequest): Promise<AppResponse> {
    const rejected = passed.has(input) ? undefined : check(input);
    if (rejected) throw rejected;
    const route = routeOf(pathOf(input.path))!;
    const signal = input.signal ?? new AbortController().signal;
    switch (route) {
      case '/healthz':
        return draining ? json(503, { status: 'shutting_down', model: model.name }) : json(200, { status: 'ok', model: model.name });
      case '/metrics':
        return { status: 200, headers: { 'content-type': PROMETHEUS_CONTENT_TYPE }, body: metrics.render() };
      case '/v1/score': {
        const parsed = parseJsonText(input.body ?? '');
        checkBatchSize(parsed, 'plans', maxPlans);
        const { task, plans } = validateBody(ScoreRequestSchema, parsed);
        const scores = plans.length === 0 ? [] : await scorePlans(model, plans.map((plan) => ({ task, plan })), signal);
        metrics.addPlansScored(scores.length);
        return json(200, { scores });
      }
      case '/get_reward': {
        const parsed = parseJsonText(input.body ?? '');
        checkBatchSize(parsed, 'query', maxPlans);
        const { query, prompts, labels } = validateBody(GetRewardRequestSchema, parsed);
        for (const [field, values] of [['prompts', prompts], ['labels', labels]] as const) {
          if (values && values.length !== query.length) {
            throw new HttpError(400, 'length_mismatch', `${field} has ${values.length} entries but query has ${query.length}; send one per query`, { field });
          }
        }
        // A query that cannot be scored as sent (its prompt is not in it, its task cannot be read)
        // is scored as an empty plan and counted, never refused: OpenRLHF stops a run after five
        // refusals of a batch (0.7.1-0.9.0), and a refused sample's None reward crashes the
        // training step (0.11.0) (issue 24).
        const unscored: UnscoredQuery[] = [];
        const items = query.map((text, index) => {
          const prompt = prompts?.[index];
          let plan = '';
          try {
            const cut = planOfQuery(text, prompt, index);
            if (cut.how === 'realigned') metrics.addRealignedQuery();
            plan = cut.plan;
          } catch (error) {
            unscored.push(unscoredQuery(error, index));
          }
          // Without a prompt there is nothing to read a task from (unless it comes from the label).
          if ((prompt === undefined || prompt === '') && readsPrompt) {
            metrics.addTaskExtraction('no-prompt');
            return { task: '', plan };
          }
          try {
            const { task, rule } = extractTask(prompt ?? '', labels?.[index], index);
            metrics.addTaskExtraction(rule);
            return { task, plan };
          } catch (error) {
            if (unscored.at(-1)?.index !== index) unscored.push(unscoredQuery(error, index));
            return { task: '', plan: '' };
          }
        });
        for (const { index } of unscored) items[index]!.plan = '';
        const scores = items.length === 0 ? [] : await scorePlans(model, items, signal);
        metrics.addPlansScored(scores.length);
        for (const { code } of unscored) metrics.addUnscoredQuery(code);
        if (unscored.length > 0) report({ type: 'queries-unscored', queries: query.length, unscored, ...(input.remoteAddress !== undefined && { remoteAddress: input.remoteAddress }) });
        const unscoredFlags = query.map(() => 0);
        for (const { index } of unscored) unscoredFlags[index] = 1;
        // OpenRLHF uses `rewards` for advantages and `scores` for dynamic filtering; a plan
        // reward model has one number for both. extra_logs values are per sample, as OpenRLHF
        // logs their mean: `unscored` is then the share of samples scored as an empty plan.
        return json(200, {
          rewards: scores,
          scores,
          extra_logs: { plan_chars: items.map((item) => item.plan.length), unscored: unscoredFlags },
          unscored: unscored.map(({ index, code }) => ({ index, code })),
        });
      }
    }
  }

  /** Hands an event to the sink; a failing sink must not turn an answer into a crash. */
  function report(event: RewardAppEvent): void {
    if (!events) return;
    try {
      events(event);
    } catch {
      // Logging is best effort.
    }
  }

  function render(error: HttpError): AppResponse {
    const { field } = error.details;
    return {
      status: error.status,
      headers: { ...JSON_HEADERS, ...error.details.headers },
      body: JSON.stringify(errorBody(error)),
      refusal: { code: errorCode(error), ...(field !== undefined && { field }) },
    };
  }

  /** Counts and reports a refused request. */
  function refused(head: AppRequestHead, error: HttpError): void {
    const route = metricRouteOf(head.path);
    metrics.addRefusal(route, errorCode(error));
    const { field } = error.details;
    report({
      type: 'request-refused',
      refusal: {
        method: head.method,
        path: pathOf(head.path),
        route,
        status: error.status,
        code: errorCode(error),
        message: error.message,
        ...(field !== undefined && { field }),
        ...(head.remoteAddress !== undefined && { remoteAddress: head.remoteAddress }),
      },
    });
  }

  return {
    metrics,
    precheck,
    async request(input) {
      const startedAtMs = input.startedAtMs ?? now();
      metrics.addInFlight(1);
      try {
        const response = await handle(input).catch((error: unknown) => {
          const httpError = toHttpError(error);
          refused(input, httpError);
          return render(httpError);
        });
        metrics.observe(metricRouteOf(input.path), response.status, now() - startedAtMs);
        return response;
      } finally {
        metrics.addInFlight(-1);
      }
    },
    reject(head, error, startedAtMs) {
      refused(head, error);
      const response = render(error);
      metrics.observe(metricRouteOf(head.path), response.status, startedAtMs === undefined ? 0 : now() - startedAtMs);
      return response;
    },
    startDraining() {
      draining = true;
    },
  };
}

/** The JSON body of every error answer: `{"error": {"message", "code", "field"?}}`. */
export interface ErrorBody {
  error: { message: string; code: string; field?: string };
}

function errorBody(error: HttpError): ErrorBody {
  const { field } = error.details;
  return { error: { message: error.message, code: errorCode(error), ...(field === undefined ? {} : { field }) } };
}

/** A query's cut or task failure as an unscored query; anything but those two 400s is a bug of ours and is thrown on. */
function unscoredQuery(error: unknown, index: number): UnscoredQuery {
  if (error instanceof HttpError && (error.code === 'query_prompt_mismatch' || error.code === 'task_not_found')) return { index, code: error.code, message: error.message };
  throw error;
}

/** Every error this server raises names a code; `http_error` covers one built elsewhere without. */
const errorCode = (error: HttpError) => error.code ?? 'http_error';

function json(status: number, body: unknown): AppResponse {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

/** Anything but an HttpError is a bug of ours: a 500 that says so, never a crash. */
function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HttpError(500, 'internal_error', `the reward server failed on this request (${message}); this is a bug in orchrm, please report it`);
}

function pathOf(path: string): string {
  return path.split('?')[0] ?? path;
}

function routeOf(path: string): Route | undefined {
  return Object.hasOwn(ROUTE_METHODS, path) ? (path as Route) : undefined;
}

function metricRouteOf(path: string): MetricRoute {
  return routeOf(pathOf(path)) ?? 'other';
}

function headerValue(headers: AppRequestHead['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
