export { countMessageTokensFast, countTokensFast } from './count-tokens-fast.js';
export { createSimWorker, DEFAULT_TEMPERATURE, type SimWorkerOptions } from './create-sim-worker.js';
export { genericGuess } from './generic-guess.js';
export { parsePrompt, type DebateAnswerLine, type ParsedPrompt } from './parse-prompt.js';
export { readProblem } from './respond-to-prompt.js';
export { simulateAnswer, stepLogit, type SimulateAnswerOptions, type SimulatedAnswer } from './simulate-answer.js';
