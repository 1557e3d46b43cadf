import type { ChatProvider } from '../llm/chat-provider.js';
import type { Scenario } from './scenario/scenario-schema.js';

/** Everything a scenario simulates, behind the same interfaces real models use. */
export interface SimEnvironment {
  scenario: Scenario;
  /** Answers orchestrator, worker and judge requests; routes by `request.slot` and `request.model`. */
  provider: ChatProvider;
  /** Model names served: orchestrator checkpoints and worker tiers. */
  models(): string[];
}

/** Builds the simulated environment of a scenario. */
export async function createSimEnvironment(scenario: Scenario): Promise<SimEnvironment> {
  // Assembled from families, worker and policy as they land (issue 3).
  throw new Error(`the simulated environment for scenario ${scenario.name} is being assembled`);
}
