import type { ChatProvider } from '../llm/index.js';

/**
 * An in-process provider that answers at once (or after `latencyMs`) with a fixed short reply,
 * so a benchmark measures orchrm's own overhead rather than a model's.
 */
export function createFixedReplyProvider(latencyMs = 0, text = 'Adding the parts gives 7.\n<answer>7</answer>'): ChatProvider {
  const usage = { promptTokens: 20, completionTokens: 10, totalTokens: 30 };
  return {
    name: latencyMs === 0 ? 'zero-latency' : `latency-${latencyMs}ms`,
    async chat() {
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      return { text, usage, usageSource: 'provider', latencyMs, model: 'bench', attempts: 1, cached: false };
    },
  };
}
