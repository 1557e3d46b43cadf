import { z } from 'zod';

/** Token counts of one or more LLM calls. */
export const UsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Who a token was spent for; every report splits tokens this way (docs/architecture.md, "Token accounting"). */
export const TokenRoleSchema = z.enum(['orchestrator', 'execution', 'verification']);
export type TokenRole = z.infer<typeof TokenRoleSchema>;

/** Usage split by role, as every episode and report carries it. */
export const UsageByRoleSchema = z.object({
  orchestrator: UsageSchema,
  execution: UsageSchema,
  verification: UsageSchema,
});
export type UsageByRole = z.infer<typeof UsageByRoleSchema>;

export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

export function emptyUsageByRole(): UsageByRole {
  return { orchestrator: emptyUsage(), execution: emptyUsage(), verification: emptyUsage() };
}

/** Returns a new Usage that is the sum of all arguments. */
export function addUsage(...usages: readonly Usage[]): Usage {
  const sum = emptyUsage();
  for (const usage of usages) {
    sum.promptTokens += usage.promptTokens;
    sum.completionTokens += usage.completionTokens;
    sum.totalTokens += usage.totalTokens;
  }
  return sum;
}
