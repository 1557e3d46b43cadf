import { deriveSeed, type PlanTemplateLibrary, Rng, type Task, type TemplatePlan } from '../../core/index.js';
import type { SimEnvironment } from '../environment.js';
import { POLICY_CHECKPOINT_SCHEMA_VERSION, FEATURE_COUNT, FEATURE_NAMES, POLICY_HEADS, samplePlan, zeroWeights, type HeadName, type PolicyCheckpoint } from '../policy/index.js';
import { countTokensFast } from '../worker/index.js';

/** A fixed way of planning, used for every task: the decisions the policy would otherwise draw. */
export interface FixedPlanKind {
  name: string;
  choices: Partial<Record<HeadName, string>>;
}

/**
 * The plan kinds calibration executes on every task: each single block, and decompositions
 * with cheap and expensive blocks. Node temperature 0.3 except where sampling needs diversity.
 */
export const FIXED_PLAN_KINDS: readonly FixedPlanKind[] = [
  { name: 'direct', choices: { dom: 'low', block: 'direct' } },
  { name: 'cot', choices: { dom: 'low', block: 'cot', temperature: '0.3' } },
  { name: 'sc-5', choices: { dom: 'low', block: 'sc', samples: '5', temperature: '0.7' } },
  { name: 'reflexion-3', choices: { dom: 'low', block: 'reflexion', rounds: '3', temperature: '0.3' } },
  { name: 'debate-3x3', choices: { dom: 'low', block: 'debate', roles: '3', rounds: '3', temperature: '0.7' } },
  { name: 'search', choices: { dom: 'low', block: 'search', temperature: '0.3' } },
  { name: 'steps-cot', choices: { dom: 'high', granularity: 'steps', searchFirst: 'no', nodeBlock: 'cot', finalBlock: 'cot', temperature: '0.3' } },
  { name: 'steps-sc', choices: { dom: 'high', granularity: 'steps', searchFirst: 'no', nodeBlock: 'sc', finalBlock: 'sc', samples: '5', temperature: '0.7' } },
  { name: 'steps-search', choices: { dom: 'high', granularity: 'steps', searchFirst: 'yes', finalBlock: 'cot', temperature: '0.3' } },
  { name: 'components-cot', choices: { dom: 'high', granularity: 'components', searchFirst: 'no', nodeBlock: 'cot', finalBlock: 'cot', temperature: '0.3' } },
  {
    name: 'steps-debate',
    choices: { dom: 'high', granularity: 'steps', searchFirst: 'no', nodeBlock: 'debate', finalBlock: 'debate', roles: '3', rounds: '3', temperature: '0.7' },
  },
];

/** Bias logit that makes a choice certain under greedy decoding. */
const FORCING_LOGIT = 50;

/** A checkpoint that always takes a kind's choices (drawn greedily, temperature 0). */
export function fixedKindCheckpoint(kind: FixedPlanKind): PolicyCheckpoint {
  const weights = zeroWeights();
  for (const [head, choice] of Object.entries(kind.choices) as [HeadName, string][]) {
    const index = (POLICY_HEADS[head] as readonly string[]).indexOf(choice);
    if (index < 0) throw new RangeError(`plan kind ${kind.name}: head ${head} has no choice ${choice}`);
    weights[head][index * FEATURE_COUNT] = FORCING_LOGIT;
  }
  return { schemaVersion: POLICY_CHECKPOINT_SCHEMA_VERSION, name: `fixed-${kind.name}`, step: 0, featureNames: [...FEATURE_NAMES], weights };
}

/**
 * Every fixed plan kind as a template library (`bon --pool sampled+templates` in the simulator):
 * for each task the orchestrator's decomposer writes the kind's plan, as calibration runs it.
 * The plan text's tokens are billed as orchestrator completion tokens, since a decomposition has
 * to be written for the task; the whole-question kinds cost the same small amount.
 */
export function simPlanTemplates(environment: Pick<SimEnvironment, 'families' | 'answerDirectly'>, kinds: readonly FixedPlanKind[] = FIXED_PLAN_KINDS): PlanTemplateLibrary {
  const checkpoints = kinds.map((kind) => ({ kind, checkpoint: fixedKindCheckpoint(kind) }));
  return {
    names: kinds.map((kind) => kind.name),
    plansFor(task: Task): TemplatePlan[] {
      return checkpoints.map(({ kind, checkpoint }) => {
        // Greedy decoding of a forced checkpoint: the seed only matters for a direct answer.
        const { plan } = samplePlan(task.question, new Rng(deriveSeed(0, `template:${kind.name}:${task.id}`)), checkpoint, {
          families: environment.families,
          answerDirectly: environment.answerDirectly,
          temperature: 0,
        });
        const planText = JSON.stringify(plan);
        const tokens = countTokensFast(planText);
        return { name: kind.name, planText, orchestratorUsage: { promptTokens: 0, completionTokens: tokens, totalTokens: tokens } };
      });
    },
  };
}
