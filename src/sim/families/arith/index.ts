export { createArithFamily, MAX_CACHED_QUESTIONS } from './arith-family.js';
export type { ArithAxes } from './generate-arith-graph.js';
