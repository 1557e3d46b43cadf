import { Rng, type Task } from '../../core/index.js';
import type { TrainablePolicy } from '../../environment/index.js';
import { buildOrchestratorMessages, defaultBlockCatalog } from '../../plan/index.js';
import type { SimEnvironment } from '../environment.js';
import {
  addGradLogProb,
  applyGradient,
  checkpointToFile,
  cloneCheckpoint,
  createSimPolicy,
  logProbOf,
  questionFeatures,
  SIM_ORCHESTRATOR_NAME,
  simOrchestratorRef,
  zeroWeights,
  type Decision,
  type PolicyCheckpoint,
  type PolicyWeights,
} from '../policy/index.js';
import { countMessageTokensFast, countTokensFast } from '../worker/index.js';

/** The simulated orchestrator's action: the head decisions that made the plan. */
export type SimAction = readonly Decision[];

/** The simulated orchestrator as a GRPO policy. */
export type SimTrainablePolicy = TrainablePolicy<PolicyCheckpoint, SimAction, PolicyWeights>;

/** Questions whose orchestrator prompt token counts are kept (a GRPO group samples one question G times). */
const MAX_CACHED_PROMPTS = 4096;

/**
 * Adapts the simulated orchestrator (`sim/policy`) to `TrainablePolicy`. Samples are drawn as
 * `createSimPolicy().sample` draws them (format and malformed text included: malformation is
 * writing noise, not a decision, so it is not in the log-probability). Orchestrator usage is
 * what the simulated orchestrator provider would bill for the same plan: the fast o200k count of
 * the JSON orchestrator prompt `collect` sends, plus the plan text and
 * `scenario.tokens.orchestratorReasoningTokens`.
 *
 * @example
 * const policy = createSimTrainablePolicy(await createSimEnvironment(loadScenario('default')));
 * const sample = await policy.sample(task, baseCheckpoint(), { seed: 1 });
 */
export function createSimTrainablePolicy(environment: Pick<SimEnvironment, 'scenario' | 'families' | 'answerDirectly'>): SimTrainablePolicy {
  const { scenario } = environment;
  const simPolicy = createSimPolicy({ scenario, families: environment.families, answerDirectly: environment.answerDirectly });
  const catalog = defaultBlockCatalog();
  const promptTokens = new Map<string, number>();
  const promptTokensOf = (question: string) => {
    let tokens = promptTokens.get(question);
    if (tokens === undefined) {
      if (promptTokens.size >= MAX_CACHED_PROMPTS) promptTokens.clear();
      tokens = countMessageTokensFast(buildOrchestratorMessages(question, { catalog, format: 'json', dom: 'auto' }));
      promptTokens.set(question, tokens);
    }
    return tokens;
  };
  return {
    name: SIM_ORCHESTRATOR_NAME,
    async sample(task: Task, checkpoint, options) {
      const sampled = simPolicy.sample(task.question, new Rng(options.seed), checkpoint, { temperature: options.temperature ?? 1 });
      const prompt = promptTokensOf(task.question);
      const completion = countTokensFast(sampled.text) + scenario.tokens.orchestratorReasoningTokens;
      return {
        text: sampled.text,
        action: sampled.decisions,
        logProb: sampled.logProb,
        usage: { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion },
      };
    },
    logProb: (task, action, checkpoint) => logProbOf(task.question, action, checkpoint),
    zeroGradient: zeroWeights,
    addGradLogProb: (gradient, task, action, checkpoint, scale) => addGradLogProb(gradient, questionFeatures(task.question), action, checkpoint, scale),
    applyGradient: (checkpoint, gradient, stepSize) => applyGradient(checkpoint, gradient, stepSize),
    rename: (checkpoint, name) => cloneCheckpoint(checkpoint, { name }),
    ref: simOrchestratorRef,
    serialize: checkpointToFile,
  };
}
