import { z } from 'zod';

/** What each built-in block leaves behind besides its answer; pair miners read these. */
export const CotArtifactsSchema = z.object({ kind: z.literal('cot') });

export const ScArtifactsSchema = z.object({
  kind: z.literal('sc'),
  /** Extracted answer of each sample, in sample order (undefined answers kept as ''). */
  samples: z.array(z.string()),
  /** Vote count per normalised answer, in first-seen order. */
  votes: z.array(z.object({ answer: z.string(), count: z.number().int().positive() })),
  winner: z.string(),
  /** Winner's votes over all samples. */
  voteShare: z.number().min(0).max(1),
});

export const ReflexionArtifactsSchema = z.object({
  kind: z.literal('reflexion'),
  initialAnswer: z.string(),
  rounds: z.array(
    z.object({
      critique: z.string(),
      verdict: z.enum(['correct', 'incorrect', 'unclear']),
      /** Answer after refining; absent on the round where the critic accepted. */
      revisedAnswer: z.string().optional(),
    }),
  ),
  /** Round (0-based) at which the critic accepted, if it ever did. */
  acceptedAtRound: z.number().int().nonnegative().optional(),
});

export const DebateArtifactsSchema = z.object({
  kind: z.literal('debate'),
  roles: z.array(z.string()),
  rounds: z.array(z.object({ turns: z.array(z.object({ role: z.string(), answer: z.string() })) })),
  finalAnswer: z.string(),
  /** True when every role gave the same normalised answer in the last round. */
  converged: z.boolean(),
});

export const SearchArtifactsSchema = z.object({
  kind: z.literal('search'),
  steps: z.array(
    z.object({
      query: z.string(),
      docIds: z.array(z.string()),
      error: z.string().optional(),
    }),
  ),
  /** Number of distinct documents retrieved over all steps. */
  documentsFound: z.number().int().nonnegative(),
  /**
   * Whether the block's answer occurs (as whole words) in a retrieved document; absent when
   * nothing was retrieved or the answer is too short or common to tell. Read by the process
   * miner's `grounding` signal. Absent in episodes stored before it existed.
   */
  answerInDocuments: z.boolean().optional(),
});

const BUILTIN_KINDS: readonly string[] = ['cot', 'sc', 'reflexion', 'debate', 'search'];

/** Artifacts of a user-registered block: any object with a `kind` that is not a built-in kind. */
export const CustomArtifactsSchema = z
  .object({
    kind: z.string().refine((kind) => !BUILTIN_KINDS.includes(kind), 'built-in artifact kinds must have their own fields'),
  })
  .catchall(z.unknown());

export const BlockArtifactsSchema = z.union([
  CotArtifactsSchema,
  ScArtifactsSchema,
  ReflexionArtifactsSchema,
  DebateArtifactsSchema,
  SearchArtifactsSchema,
  CustomArtifactsSchema,
]);

export type CotArtifacts = z.infer<typeof CotArtifactsSchema>;
export type ScArtifacts = z.infer<typeof ScArtifactsSchema>;
export type ReflexionArtifacts = z.infer<typeof ReflexionArtifactsSchema>;
export type DebateArtifacts = z.infer<typeof DebateArtifactsSchema>;
export type SearchArtifacts = z.infer<typeof SearchArtifactsSchema>;
export type BlockArtifacts = z.infer<typeof BlockArtifactsSchema>;
