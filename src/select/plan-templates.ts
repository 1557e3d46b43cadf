import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { emptyUsage, InvalidInputError, type PlanTemplateLibrary, UserError, zodIssues } from '../core/index.js';

const TemplateNodeSchema = z.strictObject({
  id: z.string().min(1),
  agent: z.string().min(1),
  input: z.string().default(''),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** A template file: `[{ "name": "reflexion-3", "plan": { "dom": "low", "nodes": [...], "answer": "A" } }, ...]`. */
export const PlanTemplateFileSchema = z
  .array(
    z.strictObject({
      name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a template name is 1-64 letters, digits, "_", "." or "-"'),
      plan: z.strictObject({
        dom: z.enum(['low', 'high']),
        nodes: z.array(TemplateNodeSchema).min(1),
        edges: z.array(z.strictObject({ from: z.string(), to: z.string() })).default([]),
        answer: z.string().min(1),
      }),
    }),
  )
  .min(1, 'a template file lists at least one template')
  .refine((templates) => new Set(templates.map((template) => template.name)).size === templates.length, 'template names must be distinct');
export type PlanTemplateFile = z.infer<typeof PlanTemplateFileSchema>;

const single = (name: string, agent: string, params: Record<string, unknown>) => ({
  name,
  plan: { dom: 'low' as const, nodes: [{ id: 'A', agent, input: '', params }], edges: [], answer: 'A' },
});

/**
 * The built-in generic templates: each block once on the whole question, with the block
 * parameters the simulator's calibration uses (docs/sim.md): `cot`, `sc-5`, `reflexion-3`,
 * `debate-3x3` and, when the run has a retriever, `search`.
 */
export const GENERIC_TEMPLATES: PlanTemplateFile = [
  single('cot', 'cot', { temperature: 0.3 }),
  single('sc-5', 'sc', { samples: 5, temperature: 0.7 }),
  single('reflexion-3', 'reflexion', { maxRounds: 3, temperature: 0.3 }),
  single('debate-3x3', 'debate', { roles: ['Mathematician', 'Skeptic', 'Analyst'], rounds: 3, temperature: 0.7 }),
  single('search', 'search', { temperature: 0.3 }),
];

/** A library of fixed plans that do not depend on the task. */
export function fixedPlanTemplates(templates: PlanTemplateFile): PlanTemplateLibrary {
  const plans = templates.map((template) => ({ name: template.name, planText: JSON.stringify(template.plan), orchestratorUsage: emptyUsage() }));
  return { names: plans.map((plan) => plan.name), plansFor: () => plans.map((plan) => ({ ...plan })) };
}

/**
 * The built-in generic templates (`GENERIC_TEMPLATES`); `search` only when the run can search.
 * @example runBestOfN({ environment, tasks, templates: genericPlanTemplates({ search: environment.retriever !== undefined }), config: { pool: 'sampled+templates' } })
 */
export function genericPlanTemplates(options: { search: boolean }): PlanTemplateLibrary {
  return fixedPlanTemplates(GENERIC_TEMPLATES.filter((template) => options.search || template.name !== 'search'));
}

/** Reads a template file (`PlanTemplateFileSchema`); the error names the file and each bad field. */
export function loadPlanTemplates(path: string): PlanTemplateLibrary {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UserError(`cannot read template file ${path}: ${(error as Error).message}; it must be a JSON array of {"name", "plan"}`);
  }
  const parsed = PlanTemplateFileSchema.safeParse(value);
  if (!parsed.success) throw new InvalidInputError(`template file ${path}`, zodIssues(parsed.error), 'each entry is {"name": "...", "plan": {"dom", "nodes", "edges", "answer"}}');
  return fixedPlanTemplates(parsed.data);
}
