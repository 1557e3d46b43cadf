import { z } from 'zod';
import { HttpError, parseJsonBody, zodIssues } from '../core/index.js';

/** `POST /v1/score`: one task and the plans to score for it. Unknown fields are ignored. */
export const ScoreRequestSchema = z.looseObject({
  task: z.string('task must be a string: the task text the plans were written for'),
  plans: z.array(z.string('each plan must be a string (plan text in JSON or XML)'), 'plans must be an array of plan strings'),
});
export type ScoreRequest = z.output<typeof ScoreRequestSchema>;

/**
 * `POST /get_reward`, the OpenRLHF remote reward protocol. `prompts` is optional because older
 * OpenRLHF releases send `query` alone; `labels` (the dataset's label column) are accepted and
 * ignored, since a plan reward model judges plans before anything executes.
 */
export const GetRewardRequestSchema = z.looseObject({
  query: z.array(z.string('each query must be a string: the prompt followed by the plan'), 'query must be an array of strings (prompt + plan)'),
  prompts: z.array(z.string('each prompt must be a string'), 'prompts must be an array of strings, one per query').optional(),
  labels: z.array(z.unknown(), 'labels must be an array (one label per query) when present').optional(),
});
export type GetRewardRequest = z.output<typeof GetRewardRequestSchema>;

/** Parses a request body as JSON; a 400 that quotes the parser's complaint otherwise. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw new HttpError(400, 'empty_body', 'the request has no body; send a JSON object (content-type: application/json)');
  return parseJsonBody(text, (reason) => new HttpError(400, 'invalid_json', `the request body is not valid JSON (${reason}); send a JSON object`));
}

/**
 * Checks a parsed body against a schema; the first problem becomes a 400 whose message and
 * `field` name the offending field (`plans[2]: each plan must be a string ...`).
 */
export function validateBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', `the request body must be a JSON object, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const field = first.path || undefined;
  throw new HttpError(400, 'invalid_field', `${field ?? 'body'}: ${first.message}${more}`, field === undefined ? {} : { field });
}

/**
 * Rejects a batch over the limit before validating its elements, so a body of millions of
 * tiny entries costs one length check rather than a walk over all of them.
 */
export function checkBatchSize(body: unknown, field: 'plans' | 'query', maxPlans: number): void {
  const items = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  if (Array.isArray(items) && items.length > maxPlans) {
    throw new HttpError(
      413,
      'too_many_plans',
      `${field} holds ${items.length} entries but this server scores at most ${maxPlans} per request; split the batch into smaller requests (or start the server with a larger --max-plans)`,
      { field },
    );
  }
}
