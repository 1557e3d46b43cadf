import type { Task } from './task.js';
import type { Usage } from './usage.js';

/** One template plan instantiated for a task. */
export interface TemplatePlan {
  name: string;
  /** Plan text as any orchestrator would write it (parsed and validated like a sampled plan). */
  planText: string;
  /** Tokens an orchestrator spent writing it; zero for a fixed template that does not depend on the task. */
  orchestratorUsage: Usage;
}

/**
 * A small library of plans added to the sampled candidates (`bon --pool sampled+templates`) and
 * run on every task as the fixed-plan baselines. Generic templates ignore the task (an empty
 * input means the original question); an environment may offer templates that depend on it,
 * such as the simulator's decompositions.
 */
export interface PlanTemplateLibrary {
  readonly names: readonly string[];
  plansFor(task: Task): TemplatePlan[] | Promise<TemplatePlan[]>;
}
