import type { Rng } from '../../core/index.js';
import type { OrchestratorConfig } from '../scenario/scenario-schema.js';
import { applicableMalformations, writeMalformedPlanText, type MalformationKind } from './corrupt-plan-text.js';
import type { PolicyCheckpoint } from './policy-checkpoint.js';
import { samplePlan, type SamplePlanOptions, type SampledPlan } from './sample-plan.js';
import { writePlanText, type PlanTextFormat } from './write-plan-text.js';

export interface SamplePlanTextOptions extends SamplePlanOptions {
  /** The scenario's orchestrator knobs: `xmlShare`, `malformedRate`, `defaultMalformedRate`. */
  orchestrator: OrchestratorConfig;
  /** A format the caller requires (e.g. the prompt asked for XML). @default XML with probability `xmlShare`, else JSON */
  format?: PlanTextFormat | undefined;
}

/** A sampled plan and the text the orchestrator wrote for it. */
export interface SampledPlanText extends SampledPlan {
  text: string;
  format: PlanTextFormat;
  /** Set when the text was corrupted; it then yields a parse or validation diagnostic. */
  malformation?: MalformationKind;
}

/** The malformed-output rate of a checkpoint in a scenario. */
export function malformedRate(orchestrator: OrchestratorConfig, checkpointName: string): number {
  return orchestrator.malformedRate[checkpointName] ?? orchestrator.defaultMalformedRate;
}

/**
 * Samples a plan (`samplePlan`) and writes its text: JSON or XML, and at the checkpoint's
 * malformed rate one corruption drawn uniformly from those that apply to the plan. The
 * decisions and log-probability are those of the intended plan: malformation is noise of the
 * writing, not a decision the policy learns.
 */
export function samplePlanText(question: string, rng: Rng, checkpoint: PolicyCheckpoint, options: SamplePlanTextOptions): SampledPlanText {
  const sampled = samplePlan(question, rng, checkpoint, options);
  const textRng = rng.fork('text');
  const format = options.format ?? (textRng.chance(options.orchestrator.xmlShare) ? 'xml' : 'json');
  if (textRng.chance(malformedRate(options.orchestrator, checkpoint.name))) {
    const malformation = textRng.pick(applicableMalformations(sampled.plan));
    return { ...sampled, text: writeMalformedPlanText(sampled.plan, format, malformation, textRng), format, malformation };
  }
  return { ...sampled, text: writePlanText(sampled.plan, format, textRng), format };
}
