import { z } from 'zod';
import { InvalidInputError, PairSplitSchema, zodIssues } from '../core/index.js';

/** Which stored pairs a query reads; every field narrows the selection. */
export const PairFilterSchema = z.strictObject({
  datasetId: z.string().min(1).optional(),
  taskId: z.string().min(1).optional(),
  source: z.string().min(1).optional(),
  split: PairSplitSchema.optional(),
});
export type PairFilter = z.infer<typeof PairFilterSchema>;

const COLUMN_BY_FIELD = {
  datasetId: 'dataset_id',
  taskId: 'task_id',
  source: 'source',
  split: 'split',
} as const satisfies Record<keyof PairFilter, string>;

/**
 * Validates a filter and turns it into a WHERE clause over the pairs table (`1` when empty),
 * its columns qualified by `alias` for queries that join. Field names never come from the caller.
 */
export function pairFilterToSql(filter: unknown, alias = 'pairs'): { where: string; params: Record<string, string> } {
  const parsed = PairFilterSchema.safeParse(filter);
  if (!parsed.success) throw new InvalidInputError('pair filter', zodIssues(parsed.error));
  const clauses: string[] = [];
  const params: Record<string, string> = {};
  for (const [field, column] of Object.entries(COLUMN_BY_FIELD)) {
    const value = parsed.data[field as keyof PairFilter];
    if (value === undefined) continue;
    clauses.push(`${alias}.${column} = @${field}`);
    params[field] = value;
  }
  return { where: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}
