import { z } from 'zod';

/**
 * What the planner side knows about a block: its name, the names orchestrators use for it, a
 * description for prompts, and its parameter schema with defaults. The runnable side lives in
 * `agents/`; keeping specs here lets `plan/` validate without depending on execution.
 */
export interface BlockSpec {
  name: string;
  /** Other names accepted in plan text, e.g. the MAS-Orchestra `CoTAgent`. */
  aliases: readonly string[];
  description: string;
  /** Parses a node's params, applying defaults; must reject unknown or ill-typed values. */
  paramsSchema: z.ZodType<Record<string, unknown>>;
  /** Params the orchestrator must supply (reported as `missing_param`). */
  requiredParams: readonly string[];
}

/** Looks up a block by name or alias. `plan/` validates against it; `agents/` implements it. */
export interface BlockCatalog {
  resolve(name: string): BlockSpec | undefined;
  specs(): readonly BlockSpec[];
}

const temperature = z.number().min(0).max(2);
const commonParams = {
  /** Worker model override for this node. */
  model: z.string().min(1).optional(),
  maxTokens: z.number().int().positive().max(32_768).optional(),
};

// Defaults are the MAS-Orchestra reference values (PAPER.md, sub-agent blocks).
export const CotParamsSchema = z.strictObject({ ...commonParams, temperature: temperature.default(0.5) });
export const ScParamsSchema = z.strictObject({
  ...commonParams,
  temperature: temperature.default(0.5),
  samples: z.number().int().min(1).max(20).default(5),
});
export const ReflexionParamsSchema = z.strictObject({
  ...commonParams,
  temperature: temperature.default(0.5),
  maxRounds: z.number().int().min(0).max(10).default(5),
});
export const DebateParamsSchema = z.strictObject({
  ...commonParams,
  temperature: temperature.default(0.5),
  roles: z.array(z.string().min(1)).min(2, 'a debate needs at least 2 roles').max(8),
  rounds: z.number().int().min(1).max(10).default(5),
});
export const SearchParamsSchema = z.strictObject({
  ...commonParams,
  temperature: temperature.default(0.5),
  topK: z.number().int().min(1).max(50).default(5),
  maxIterations: z.number().int().min(1).max(10).default(5),
});

export type CotParams = z.infer<typeof CotParamsSchema>;
export type ScParams = z.infer<typeof ScParamsSchema>;
export type ReflexionParams = z.infer<typeof ReflexionParamsSchema>;
export type DebateParams = z.infer<typeof DebateParamsSchema>;
export type SearchParams = z.infer<typeof SearchParamsSchema>;

export const BUILTIN_BLOCK_SPECS: readonly BlockSpec[] = [
  {
    name: 'cot',
    aliases: ['CoTAgent', 'ChainOfThought', 'CoT'],
    description: 'Chain-of-thought: one model call that reasons step by step and answers.',
    paramsSchema: CotParamsSchema,
    requiredParams: [],
  },
  {
    name: 'sc',
    aliases: ['SCAgent', 'SelfConsistency', 'CoTSCAgent', 'self-consistency'],
    description: 'Self-consistency: several independent samples, majority vote on the answer.',
    paramsSchema: ScParamsSchema,
    requiredParams: [],
  },
  {
    name: 'reflexion',
    aliases: ['ReflexionAgent', 'Reflexion', 'SelfRefine'],
    description: 'Reflexion: an answer, then critic and refine rounds until the critic accepts.',
    paramsSchema: ReflexionParamsSchema,
    requiredParams: [],
  },
  {
    name: 'debate',
    aliases: ['DebateAgent', 'Debate', 'LLMDebate'],
    description: 'Debate: several roles argue over rounds, each seeing the others, then a final decision.',
    paramsSchema: DebateParamsSchema,
    requiredParams: ['roles'],
  },
  {
    name: 'search',
    aliases: ['SearchAgent', 'WebSearchAgent', 'Search', 'RetrievalAgent'],
    description: 'Search: a tool loop that queries a retriever and answers from what it finds.',
    paramsSchema: SearchParamsSchema,
    requiredParams: [],
  },
];

/** A catalog over a list of specs; name and alias matching ignores case. */
export function createBlockCatalog(specs: readonly BlockSpec[] = BUILTIN_BLOCK_SPECS): BlockCatalog {
  const byName = new Map<string, BlockSpec>();
  for (const spec of specs) {
    for (const name of [spec.name, ...spec.aliases]) byName.set(name.toLowerCase(), spec);
  }
  return {
    resolve: (name) => byName.get(name.trim().toLowerCase()),
    specs: () => specs,
  };
}

let builtinCatalog: BlockCatalog | undefined;

/** The catalog of built-in blocks, created once. */
export function defaultBlockCatalog(): BlockCatalog {
  builtinCatalog ??= createBlockCatalog();
  return builtinCatalog;
}
