import { deriveSeed, fnv1a32, type OrchestratorRef, Rng, UserError } from '../../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from '../../llm/index.js';
import { readOrchestratorPrompt } from '../../prompts/index.js';
import type { SimFamily } from '../families/family.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { countMessageTokensFast, countTokensFast } from '../worker/index.js';
import type { PolicyCheckpoint } from './policy-checkpoint.js';
import type { AnswerDirectly } from './sample-plan.js';
import { createSimPolicy } from './sim-policy.js';

/** Instruction messages whose token counts are kept (the system and developer prompts rarely vary). */
const MAX_CACHED_MESSAGE_COUNTS = 64;
/** `countMessageTokensFast` adds this once per request for the reply's priming. */
const REPLY_PRIMING_TOKENS = countMessageTokensFast([]);

/** Model names are this prefix plus the checkpoint name. */
export const SIM_ORCHESTRATOR_MODEL_PREFIX = 'sim-orchestrator-';

/** The name episodes record for plans of the simulated orchestrator, whatever its checkpoint. */
export const SIM_ORCHESTRATOR_NAME = 'sim-orchestrator';

/**
 * Who wrote a plan of the simulated orchestrator at a checkpoint, as episodes record it (and
 * its training step when known), in-process and over HTTP alike, so the checkpoint pair miner
 * can tell later checkpoints from earlier ones.
 */
export function simOrchestratorRef(checkpoint: { name: string; step: number }): OrchestratorRef & { checkpoint: string; step: number };
export function simOrchestratorRef(checkpoint: { name: string; step?: number | undefined }): OrchestratorRef & { checkpoint: string };
export function simOrchestratorRef(checkpoint: { name: string; step?: number | undefined }): OrchestratorRef & { checkpoint: string } {
  return { name: SIM_ORCHESTRATOR_NAME, checkpoint: checkpoint.name, ...(checkpoint.step !== undefined && { step: checkpoint.step }) };
}

/**
 * Who wrote the plans of a model: `sim-orchestrator-<checkpoint>` is the simulated orchestrator
 * at that checkpoint (with its step when `checkpoints` holds it); any other model is itself.
 */
export function orchestratorRefOfModel(model: string, checkpoints?: ReadonlyMap<string, { step: number }>): OrchestratorRef {
  if (!model.startsWith(SIM_ORCHESTRATOR_MODEL_PREFIX)) return { name: model };
  const name = model.slice(SIM_ORCHESTRATOR_MODEL_PREFIX.length);
  return simOrchestratorRef({ name, step: checkpoints?.get(name)?.step });
}

export interface SimOrchestratorProviderOptions {
  scenario: Scenario;
  families: readonly SimFamily[];
  /** Checkpoints by name; each is served as `sim-orchestrator-<name>`. */
  checkpoints: ReadonlyMap<string, PolicyCheckpoint>;
  answerDirectly: AnswerDirectly;
}

/** A provider that also lists the models it serves. */
export interface SimOrchestratorProvider extends ChatProvider {
  models(): string[];
}

/**
 * The simulated orchestrator behind the `ChatProvider` interface. It reads the task question
 * from the prompt (`readOrchestratorPrompt`), draws a plan from the named checkpoint and
 * returns its text. Format: JSON when structured output is requested, XML when the prompt
 * asks for XML, and otherwise XML with probability `scenario.orchestrator.xmlShare` (like an
 * orchestrator trained on MAS-Orchestra's XML that does not always follow a JSON
 * instruction). A DoM the prompt imposes is respected; `request.temperature` scales the
 * decision logits (0 = greedy; default 1). The draw depends only on the
 * scenario seed, `request.seed`, the checkpoint and the question, never on
 * `request.sampleIndex` (absent over HTTP), so the same request gives the same text
 * in-process and through `orchrm sim serve`. A request without a model uses `base`.
 * Usage: prompt and response tokens (the worker's fast approximate count) plus `tokens.orchestratorReasoningTokens`
 * of hidden reasoning, reported as `usageSource: 'provider'`.
 */
export function createSimOrchestratorProvider(options: SimOrchestratorProviderOptions): SimOrchestratorProvider {
  const { scenario, checkpoints } = options;
  const policy = createSimPolicy(options);
  const messageCounts = new Map<string, number>();
  // Counting the long developer prompt on every call would cost more than drawing the plan.
  const promptTokensOf = (messages: ChatRequest['messages']) => {
    let total = REPLY_PRIMING_TOKENS;
    for (const message of messages) {
      let tokens = message.role === 'user' ? undefined : messageCounts.get(message.content);
      if (tokens === undefined) {
        tokens = countMessageTokensFast([message]) - REPLY_PRIMING_TOKENS;
        if (message.role !== 'user') {
          if (messageCounts.size >= MAX_CACHED_MESSAGE_COUNTS) messageCounts.clear();
          messageCounts.set(message.content, tokens);
        }
      }
      total += tokens;
    }
    return total;
  };
  const models = () => [...checkpoints.keys()].map((name) => `${SIM_ORCHESTRATOR_MODEL_PREFIX}${name}`);
  const checkpointFor = (model: string | undefined): { name: string; checkpoint: PolicyCheckpoint } => {
    const name = model === undefined ? 'base' : model.startsWith(SIM_ORCHESTRATOR_MODEL_PREFIX) ? model.slice(SIM_ORCHESTRATOR_MODEL_PREFIX.length) : '';
    const checkpoint = checkpoints.get(name);
    if (!checkpoint) throw new UserError(`the simulated orchestrator has no model "${model ?? 'sim-orchestrator-base'}"; use one of: ${models().join(', ') || '(no checkpoints loaded)'}`);
    return { name, checkpoint };
  };

  return {
    name: SIM_ORCHESTRATOR_NAME,
    models,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      request.signal?.throwIfAborted();
      const { name, checkpoint } = checkpointFor(request.model);
      const prompt = readOrchestratorPrompt(request.messages);
      const seed = deriveSeed(request.seed ?? 0, `sim-orchestrator:${scenario.seed}:${checkpoint.name}:${fnv1a32(prompt.question)}`);
      const format = request.responseFormat?.type === 'json_schema' ? 'json' : prompt.format === 'xml' ? 'xml' : undefined;
      const sampled = policy.sample(prompt.question, new Rng(seed), checkpoint, { dom: prompt.dom, format, temperature: request.temperature });
      const promptTokens = promptTokensOf(request.messages);
      const completionTokens = countTokensFast(sampled.text) + scenario.tokens.orchestratorReasoningTokens;
      return {
        text: sampled.text,
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
        usageSource: 'provider',
        latencyMs: 0,
        model: `${SIM_ORCHESTRATOR_MODEL_PREFIX}${name}`,
        attempts: 1,
        cached: false,
        finishReason: sampled.malformation === 'truncated' ? 'length' : 'stop',
      };
    },
  };
}
