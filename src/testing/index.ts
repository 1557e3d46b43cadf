export { openAiReasoningModel, startChatServer } from './chat-server.js';
export {
  createFunctionProvider,
  createScriptedProvider,
  type RecordingProvider,
  type ScriptedProvider,
  type ScriptedStep,
} from './scripted-provider.js';
export type { ChatCompletionBody, ChatServer, ChatServerHandler, ChatServerOptions, ChatServerReply, TextReply } from './chat-server.js';
export { comparableEpisode } from './comparable-episode.js';
export { createParseErrorEpisode, createRichEpisode } from './episode-factory.js';
