import { z } from 'zod';
import { EpisodeStatusSchema, InvalidInputError, zodIssues } from '../core/index.js';

/** Which episodes a query reads; every field narrows the selection. */
export const EpisodeFilterSchema = z.strictObject({
  runId: z.string().min(1).optional(),
  taskId: z.string().min(1).optional(),
  status: EpisodeStatusSchema.optional(),
  /** Orchestrator name. */
  orchestrator: z.string().min(1).optional(),
  checkpoint: z.string().optional(),
});
export type EpisodeFilter = z.infer<typeof EpisodeFilterSchema>;

/** A filter with paging, for listings. Episodes come in insertion order. */
export const EpisodeListOptionsSchema = EpisodeFilterSchema.extend({
  /** @default 100 */
  limit: z.number().int().positive().optional(),
  /** @default 0 */
  offset: z.number().int().nonnegative().optional(),
});
export type EpisodeListOptions = z.infer<typeof EpisodeListOptionsSchema>;

const COLUMN_BY_FIELD = {
  runId: 'run_id',
  taskId: 'task_id',
  status: 'status',
  orchestrator: 'orchestrator',
  checkpoint: 'checkpoint',
} as const satisfies Record<keyof EpisodeFilter, string>;

/** A WHERE clause (always present, `1` when empty) and its named parameters. */
export interface FilterSql {
  where: string;
  params: Record<string, string>;
}

/** Validates a filter and turns it into SQL over the episodes table; field names never come from the caller. */
export function filterToSql(filter: unknown): FilterSql {
  const parsed = EpisodeFilterSchema.safeParse(filter);
  if (!parsed.success) throw new InvalidInputError('episode filter', zodIssues(parsed.error));
  const clauses: string[] = [];
  const params: Record<string, string> = {};
  for (const [field, column] of Object.entries(COLUMN_BY_FIELD)) {
    const value = parsed.data[field as keyof EpisodeFilter];
    if (value === undefined) continue;
    clauses.push(`${column} = @${field}`);
    params[field] = value;
  }
  return { where: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}

/** Validates listing options and splits them into the filter and the page. */
export function parseListOptions(options: unknown): { filter: EpisodeFilter; limit: number; offset: number } {
  const parsed = EpisodeListOptionsSchema.safeParse(options);
  if (!parsed.success) throw new InvalidInputError('episode list options', zodIssues(parsed.error));
  const { limit = 100, offset = 0, ...filter } = parsed.data;
  return { filter, limit, offset };
}
