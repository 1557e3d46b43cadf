import type { Retriever } from '../../core/retriever.js';
import { TaskSchema, type Task } from '../../core/task.js';
import type { ChatProvider } from '../../llm/chat-provider.js';
import type { BlockChatRequest, BlockContext } from '../block.js';

/**
 * A minimal BlockContext for block tests: `chat` forwards to a real provider (a scripted one)
 * as the worker slot and records each block request in `requests`.
 */
export function createTestContext<P>(options: {
  provider: ChatProvider;
  params: P;
  question?: string;
  input?: string;
  retriever?: Retriever;
}): BlockContext<P> & { requests: BlockChatRequest[]; task: Task } {
  const question = options.question ?? 'What is 6 times 7?';
  const task = TaskSchema.parse({ id: 'task-1', question });
  const requests: BlockChatRequest[] = [];
  const signal = new AbortController().signal;
  return {
    task,
    nodeId: 'n1',
    input: options.input ?? question,
    params: options.params,
    retriever: options.retriever,
    signal,
    requests,
    chat(request) {
      requests.push(request);
      return options.provider.chat({ ...request, slot: 'worker', signal });
    },
  };
}

/** The content of the last user message of a request. */
export function lastUserMessage(request: BlockChatRequest | undefined): string {
  const messages = request?.messages ?? [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}
