/**
 * The simulated worker model (issue 3): a ChatProvider that reads block prompts by their
 * headers (the block prompt codec of src/prompts/, `readBlockPrompt`), has the task families read what they show, draws each
 * reasoning step's success from the scenario's competence model (`simulateAnswer`), and
 * replies as a model would. `sim-worker` answers every step kind: answer, refine (with
 * `refineBonus`), critique (`critic.detect` / `critic.falseAlarm`), debate-turn (`persuasion`),
 * debate-final (plurality of the last round), search (asks `nextQuery()` while searches are
 * left) and search-final. Prompts no family reads get a low-confidence guess.
 */
export { countMessageTokensFast, countTokensFast } from './count-tokens-fast.js';
export { createSimWorker, DEFAULT_TEMPERATURE, type SimWorkerOptions } from './create-sim-worker.js';
export { genericGuess } from './generic-guess.js';
export { readProblem } from './respond-to-prompt.js';
export { simulateAnswer, stepLogit, type SimulateAnswerOptions, type SimulatedAnswer } from './simulate-answer.js';
