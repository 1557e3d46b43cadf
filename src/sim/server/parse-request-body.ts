import type { z } from 'zod';
import { HttpError, zodIssues } from '../../core/index.js';

/** Validates a parsed JSON body; the first issue becomes a 400 naming the field (`param`), as OpenAI does. */
export function parseRequestBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem(s))` : '';
  const field = first?.path || undefined;
  throw new HttpError(400, 'invalid_request', `${first?.path || 'body'}: ${first?.message ?? 'invalid request'}${more}`, {
    type: 'invalid_request_error',
    ...(field !== undefined && { field }),
  });
}
