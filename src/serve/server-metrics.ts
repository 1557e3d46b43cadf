/**
 * Prometheus metrics of the reward server, kept in plain arrays and rendered in the text
 * exposition format (version 0.0.4) by hand: `prom-client` is not a dependency of orchrm and
 * a few metric families with fixed label sets do not justify adding one.
 */
import { TASK_RULES, type TaskRule } from './extract-task.js';

/** Why a `/get_reward` query could not be scored as sent: its query does not hold its prompt, or its task cannot be read. */
export const UNSCORED_CODES = ['query_prompt_mismatch', 'task_not_found'] as const;
export type UnscoredCode = (typeof UNSCORED_CODES)[number];

/** Routes that get their own label value; anything else is counted as `other`, so a scanner cannot blow up the label set. */
export const METRIC_ROUTES = ['/v1/score', '/get_reward', '/healthz', '/metrics', 'other'] as const;
export type MetricRoute = (typeof METRIC_ROUTES)[number];

/**
 * Upper bounds of the latency histogram, in seconds: Prometheus' default buckets with two
 * finer ones below 5 ms added, because a linear reward model answers in well under a millisecond.
 */
export const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Content type of `render()`'s output. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface ServerMetrics {
  /** Counts one answered request and its latency. */
  observe(route: MetricRoute, status: number, durationMs: number): void;
  /** Adds plans scored by the model (one per score returned). */
  addPlansScored(count: number): void;
  /**
   * Counts one refused request (any 4xx or 5xx answer) by route and error code, so a client
   * that drops error bodies (OpenRLHF logs a bare "Bad Request") can still be diagnosed here.
   */
  addRefusal(route: MetricRoute, code: string): void;
  /** Counts how the task of one `/get_reward` query was found. */
  addTaskExtraction(rule: TaskRule): void;
  /** Counts one `/get_reward` query that could not be scored as sent (scored as an empty plan), by the reason's code. */
  addUnscoredQuery(code: UnscoredCode): void;
  /** Counts one `/get_reward` query whose prompt was found only after realigning it (left-truncated or re-decoded). */
  addRealignedQuery(): void;
  /** Moves the in-flight gauge by +1 or -1. */
  addInFlight(delta: 1 | -1): void;
  /** Requests answered so far with this route and status. */
  requestCount(route: MetricRoute, status: number): number;
  /** Refused requests so far with this route and error code. */
  refusalCount(route: MetricRoute, code: string): number;
  /** `/get_reward` queries whose task was found by this rule so far. */
  taskExtractionCount(rule: TaskRule): number;
  /** `/get_reward` queries scored as an empty plan so far, with this code. */
  unscoredCount(code: UnscoredCode): number;
  /** `/get_reward` queries realigned so far. */
  realignedCount(): number;
  /** Totals since start: requests answered, of which 4xx and 5xx, plans scored, and queries that could not be scored as sent. */
  totals(): { requests: number; clientErrors: number; serverErrors: number; plansScored: number; unscoredQueries: number };
  /** The metrics in Prometheus text format. */
  render(): string;
}

/** A fresh, empty metrics registry. */
export function createServerMetrics(): ServerMetrics {
  const requests = new Map<string, number>(); // `${route} ${status}` -> count
  const bucketCounts = new Map<MetricRoute, Float64Array>(METRIC_ROUTES.map((route) => [route, new Float64Array(LATENCY_BUCKETS_S.length)]));
  const latencySumS = new Map<MetricRoute, number>(METRIC_ROUTES.map((route) => [route, 0]));
  const latencyCount = new Map<MetricRoute, number>(METRIC_ROUTES.map((route) => [route, 0]));
  const refusals = new Map<string, number>(); // `${route} ${code}` -> count; codes are the server's own, a small fixed set
  const taskRules = new Map<TaskRule, number>(TASK_RULES.map((rule) => [rule, 0]));
  const unscored = new Map<UnscoredCode, number>(UNSCORED_CODES.map((code) => [code, 0]));
  let realigned = 0;
  let plansScored = 0;
  let inFlight = 0;

  return {
    observe(route, status, durationMs) {
      const key = `${route} ${status}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      const durationS = durationMs / 1000;
      const buckets = bucketCounts.get(route)!;
      // Non-cumulative here; `render` accumulates, as the format wants `le` buckets cumulative.
      const index = LATENCY_BUCKETS_S.findIndex((bound) => durationS <= bound);
      if (index >= 0) buckets[index]! += 1;
      latencySumS.set(route, latencySumS.get(route)! + durationS);
      latencyCount.set(route, latencyCount.get(route)! + 1);
    },
    addPlansScored(count) {
      plansScored += count;
    },
    addUnscoredQuery(code) {
      unscored.set(code, unscored.get(code)! + 1);
    },
    addRealignedQuery() {
      realigned++;
    },
    unscoredCount(code) {
      return unscored.get(code)!;
    },
    realignedCount() {
      return realigned;
    },
    addRefusal(route, code) {
      const key = `${route} ${code}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    },
    addTaskExtraction(rule) {
      taskRules.set(rule, taskRules.get(rule)! + 1);
    },
    addInFlight(delta) {
      inFlight += delta;
    },
    requestCount(route, status) {
      return requests.get(`${route} ${status}`) ?? 0;
    },
    refusalCount(route, code) {
      return refusals.get(`${route} ${code}`) ?? 0;
    },
    taskExtractionCount(rule) {
      return taskRules.get(rule) ?? 0;
    },
    totals() {
      const totals = { requests: 0, clientErrors: 0, serverErrors: 0, plansScored, unscoredQueries: [...unscored.values()].reduce((sum, count) => sum + count, 0) };
      for (const [key, count] of requests) {
        const status = Number(key.split(' ')[1]);
        totals.requests += count;
        if (status >= 500) totals.serverErrors += count;
        else if (status >= 400) totals.clientErrors += count;
      }
      return totals;
    },
    render() {
      const lines = [
        '# HELP orchrm_http_requests_total HTTP requests answered, by route and status code.',
        '# TYPE orchrm_http_requests_total counter',
      ];
      for (const [key, count] of [...requests].sort(([a], [b]) => a.localeCompare(b))) {
        const [route, status] = key.split(' ');
        lines.push(`orchrm_http_requests_total{route="${route}",status="${status}"} ${count}`);
      }
      lines.push(
        '# HELP orchrm_http_request_duration_seconds Time from receiving a request to sending its answer.',
        '# TYPE orchrm_http_request_duration_seconds histogram',
      );
      for (const route of METRIC_ROUTES) {
        const count = latencyCount.get(route)!;
        if (count === 0) continue;
        let cumulative = 0;
        LATENCY_BUCKETS_S.forEach((bound, index) => {
          cumulative += bucketCounts.get(route)![index]!;
          lines.push(`orchrm_http_request_duration_seconds_bucket{route="${route}",le="${bound}"} ${cumulative}`);
        });
        lines.push(
          `orchrm_http_request_duration_seconds_bucket{route="${route}",le="+Inf"} ${count}`,
          `orchrm_http_request_duration_seconds_sum{route="${route}"} ${latencySumS.get(route)}`,
          `orchrm_http_request_duration_seconds_count{route="${route}"} ${count}`,
        );
      }
      lines.push('# HELP orchrm_http_refusals_total Requests refused (4xx or 5xx), by route and error code.', '# TYPE orchrm_http_refusals_total counter');
      for (const [key, count] of [...refusals].sort(([a], [b]) => a.localeCompare(b))) {
        const [route, code] = key.split(' ');
        lines.push(`orchrm_http_refusals_total{route="${route}",code="${code}"} ${count}`);
      }
      lines.push('# HELP orchrm_task_extractions_total /get_reward queries by the rule that found their task.', '# TYPE orchrm_task_extractions_total counter');
      for (const [rule, count] of taskRules) if (count > 0) lines.push(`orchrm_task_extractions_total{rule="${rule}"} ${count}`);
      lines.push(
        '# HELP orchrm_unscored_queries_total /get_reward queries that could not be scored as sent, scored as an empty plan instead, by reason.',
        '# TYPE orchrm_unscored_queries_total counter',
        ...UNSCORED_CODES.map((code) => `orchrm_unscored_queries_total{code="${code}"} ${unscored.get(code)}`),
        '# HELP orchrm_realigned_queries_total /get_reward queries whose prompt was found only ignoring whitespace or a left-truncated start.',
        '# TYPE orchrm_realigned_queries_total counter',
        `orchrm_realigned_queries_total ${realigned}`,
        '# HELP orchrm_plans_scored_total Plans scored by the reward model.',
        '# TYPE orchrm_plans_scored_total counter',
        `orchrm_plans_scored_total ${plansScored}`,
        '# HELP orchrm_http_requests_in_flight Requests being handled right now.',
        '# TYPE orchrm_http_requests_in_flight gauge',
        `orchrm_http_requests_in_flight ${inFlight}`,
      );
      return `${lines.join('\n')}\n`;
    },
  };
}
