import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { deriveSeed, type LlmCallRecord } from '../core/index.js';
import type { BlockChatRequest } from '../agents/index.js';
import { type ChatProvider, type ChatRequest, type ChatResponse, isServerFailure, requestHash, responseCallFields, type UsageMeter } from '../llm/index.js';
import type { EpisodeLimits } from './episode-limits.js';

export interface NodeChatOptions {
  provider: ChatProvider;
  limits: EpisodeLimits;
  nodeId: string;
  /** Worker model override from the node's params. */
  model: string | undefined;
  episodeSeed: number;
  /** Where the node's call records go, in call order. */
  calls: LlmCallRecord[];
  /** Also attributes every call to this episode and node, when given. */
  meter?: EpisodeMeter;
}

/** A usage meter and the episode its calls belong to. */
export interface EpisodeMeter {
  meter: UsageMeter;
  episodeId: string;
}

/**
 * The `chat` function a block receives: fills in slot, model and a per-call seed, checks the
 * episode's limits, and records every call (failed ones too, with their cause) in the trace.
 */
export function createNodeChat(options: NodeChatOptions): (request: BlockChatRequest) => Promise<ChatResponse> {
  const { provider, limits, nodeId, model, episodeSeed, calls, meter } = options;
  const attribution = meter && { episodeId: meter.episodeId, nodeId, role: 'execution' as const };
  let nextIndex = 0;
  return async (blockRequest) => {
    // A provider that answers without I/O (the in-process simulator) would otherwise keep the event
    // loop from running the episode's deadline timer and signal handlers until the run ends.
    await yieldToEventLoop();
    limits.ensureCanCall();
    const index = nextIndex++;
    const sampleIndex = blockRequest.sampleIndex ?? 0;
    const request: ChatRequest = {
      messages: blockRequest.messages,
      slot: 'worker',
      ...(model !== undefined && { model }),
      ...(blockRequest.temperature !== undefined && { temperature: blockRequest.temperature }),
      ...(blockRequest.maxTokens !== undefined && { maxTokens: blockRequest.maxTokens }),
      ...(blockRequest.stop !== undefined && { stop: blockRequest.stop }),
      seed: deriveSeed(episodeSeed, `${nodeId}:${index}`),
      sampleIndex,
      signal: limits.signal,
    };
    const record: LlmCallRecord = {
      index,
      role: 'execution',
      slot: 'worker',
      model: model ?? '',
      messages: request.messages,
      requestHash: requestHash(request),
      response: '',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      usageSource: 'counted',
      latencyMs: 0,
      attempts: 1,
      cached: false,
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      sampleIndex,
    };
    calls.push(record);
    const startedAt = performance.now();
    try {
      const response = await provider.chat(request);
      Object.assign(record, responseCallFields(response));
      limits.charge(response.usage);
      if (attribution) meter?.meter.recordResponse(attribution, response);
      return response;
    } catch (error) {
      if (attribution) meter?.meter.recordFailure(attribution, error);
      record.latencyMs = performance.now() - startedAt;
      record.error = limits.stoppedBy?.message ?? errorMessage(error);
      if (limits.stoppedBy === undefined && isServerFailure(error)) limits.noteServerFailure(record.error);
      throw limits.stoppedBy ?? error;
    }
  };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
