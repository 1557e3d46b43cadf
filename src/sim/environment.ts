import type { Retriever } from '../core/retriever.js';
import { UserError } from '../core/errors.js';
import type { ChatProvider } from '../llm/chat-provider.js';
import { createBm25Retriever } from '../tasks/index.js';
import { createArithFamily } from './families/arith/index.js';
import type { SimFamily } from './families/family.js';
import { loadHotpotFamily } from './families/hotpot/index.js';
import { createMultihopFamily } from './families/multihop/index.js';
import { createSimJudge, isJudgePrompt } from './judge/index.js';
import { baseCheckpoint, createSimOrchestratorProvider, type AnswerDirectly, type PolicyCheckpoint } from './policy/index.js';
import type { Scenario } from './scenario/scenario-schema.js';
import { createSimWorker, readProblem, simulateAnswer } from './worker/index.js';

/** Everything a scenario simulates, behind the same interfaces real models use. */
export interface SimEnvironment {
  scenario: Scenario;
  families: readonly SimFamily[];
  /** Answers orchestrator, worker and judge requests; routes by `request.slot`. */
  provider: ChatProvider;
  /** BM25 over every document the scenario's families contribute (search blocks use it). */
  retriever: Retriever;
  /** Orchestrator checkpoints served, by name (`base` always). */
  checkpoints: ReadonlyMap<string, PolicyCheckpoint>;
  /** Model names served: orchestrator checkpoints and worker tiers. */
  models(): string[];
  /** The orchestrator answering a whole question itself (DoM low, no agent). */
  answerDirectly: AnswerDirectly;
  /** Families the scenario asks for that could not be loaded (e.g. hotpot without its data file). */
  unavailable: readonly { family: string; reason: string }[];
}

export interface SimEnvironmentOptions {
  /** Checkpoints served besides `base`. */
  checkpoints?: readonly PolicyCheckpoint[];
}

/**
 * Builds the simulated environment of a scenario: its families, the simulated worker, the
 * simulated orchestrator (one model per checkpoint), and BM25 over the scenario's corpus.
 * Requests for the `judge` slot that carry a judge prompt (src/select/judge-prompts.ts) are
 * answered by the simulated judge (src/sim/judge/); any other request is answered by the worker.
 */
export async function createSimEnvironment(scenario: Scenario, options: SimEnvironmentOptions = {}): Promise<SimEnvironment> {
  const families: SimFamily[] = [];
  const unavailable: { family: string; reason: string }[] = [];
  const { arith, multihop, hotpot } = scenario.families;
  if (arith && arith.weight > 0) families.push(createArithFamily(arith));
  if (multihop && multihop.weight > 0) families.push(createMultihopFamily(multihop, scenario.seed));
  if (hotpot && hotpot.weight > 0) {
    const loaded = await loadHotpotFamily(hotpot);
    if ('available' in loaded) unavailable.push({ family: 'hotpot', reason: loaded.reason });
    else families.push(loaded);
  }
  if (families.length === 0) {
    const reasons = unavailable.map((entry) => `${entry.family}: ${entry.reason}`).join('; ');
    throw new UserError(`scenario ${scenario.name} has no family with weight > 0 that can be loaded${reasons ? ` (${reasons})` : ''}`);
  }

  const worker = createSimWorker({ scenario, families });
  const checkpoints = new Map<string, PolicyCheckpoint>([['base', baseCheckpoint()]]);
  for (const checkpoint of options.checkpoints ?? []) checkpoints.set(checkpoint.name, checkpoint);
  // A direct answer is the orchestrator working the whole question in one call, at its own skill.
  const answerDirectly: AnswerDirectly = (question, seed) => {
    const problem = readProblem({ subTask: question, originalQuestion: question, documents: [] }, families);
    if (!problem) return 'unknown';
    return simulateAnswer(problem, { scenario, skill: scenario.orchestrator.directAnswerSkill, temperature: scenario.worker.referenceTemperature, seed }).answer;
  };
  const orchestrator = createSimOrchestratorProvider({ scenario, families, checkpoints, answerDirectly });
  const retriever = createBm25Retriever(families.flatMap((family) => [...family.corpus()]));
  const judge = createSimJudge({ scenario, families, retriever });
  const provider: ChatProvider = {
    name: `sim(${scenario.name})`,
    chat: (request) => {
      if (request.slot === 'orchestrator') return orchestrator.chat(request);
      if (request.slot === 'judge' && isJudgePrompt(request.messages)) return judge.chat(request);
      return worker.chat(request);
    },
  };
  return {
    scenario,
    families,
    provider,
    retriever,
    checkpoints,
    answerDirectly,
    models: () => [...orchestrator.models(), ...Object.keys(scenario.worker.tiers)],
    unavailable,
  };
}
