export { BUILTIN_SCENARIOS } from './builtin-scenarios.js';
export { loadScenario, scenarioNames } from './load-scenario.js';
export * from './scenario-schema.js';
