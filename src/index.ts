/**
 * orchrm: reward models over multi-agent orchestration plans.
 *
 * The public API, one stage per module (DESIGN.md): shared types, providers, plans, blocks,
 * the executor, orchestrators, collection, and the artifact store. Test helpers (a scripted
 * provider, a chat server) are published separately under `orchrm/testing`.
 *
 * @example
 * import { createBlockRegistry, createChatProvider, createLlmOrchestrator, collectEpisodes, loadProviderConfig, openStore } from 'orchrm';
 * const provider = createChatProvider(loadProviderConfig('vllm.json'), { cacheDatabase: 'runs.db' });
 * const blocks = createBlockRegistry();
 * const store = openStore('runs.db');
 * const orchestrator = createLlmOrchestrator({ provider, catalog: blocks });
 * const summary = await collectEpisodes({ tasks, orchestrator, provider, blocks, store, plansPerTask: 8 });
 */
export * from './core/index.js';
export * from './llm/index.js';
export * from './plan/index.js';
export * from './agents/index.js';
export * from './exec/index.js';
export * from './orchestrator/index.js';
export * from './collect/index.js';
export * from './store/index.js';
export * from './tasks/index.js';
export * from './sim/index.js';
export * from './pairs/index.js';
export * from './rm/index.js';
export * from './select/index.js';
export * from './train/index.js';
export * from './serve/index.js';
export * from './report/index.js';
export * from './demo/index.js';
