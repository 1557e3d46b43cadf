import type { BlockArtifacts, ChatMessage, Retriever, Task } from '../core/index.js';
import type { ChatResponse } from '../llm/index.js';
import type { BlockSpec } from '../plan/index.js';

/** A call a block makes; the executor fills in slot, model, seed and accounting. */
export interface BlockChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  /** Distinguishes repeated identical requests inside a block (SC samples). @default 0 */
  sampleIndex?: number;
}

/** What a block gets to do its work. It never sees other nodes or the plan. */
export interface BlockContext<P = Record<string, unknown>> {
  task: Task;
  nodeId: string;
  /** The node's input after `${id}` substitution; the original question when the plan left it empty. */
  input: string;
  /** Params after defaults were applied and validated. */
  params: P;
  /**
   * Calls the worker model. Records the call in the node trace, meters its tokens, and throws
   * BudgetExceededError / TimeoutError when the episode's limits are hit.
   */
  chat(request: BlockChatRequest): Promise<ChatResponse>;
  /** Set when the run was configured with a retriever; the search block requires it. */
  retriever?: Retriever;
  signal: AbortSignal;
}

export interface BlockResult {
  /** Full final text of the node (reasoning and answer). */
  output: string;
  /** Extracted answer, passed downstream and used as the final answer at the sink. */
  answer: string;
  artifacts: BlockArtifacts;
}

/** A runnable block: its spec plus how to run it. */
export interface BlockDefinition<P = Record<string, unknown>> extends BlockSpec {
  run(context: BlockContext<P>): Promise<BlockResult>;
}
