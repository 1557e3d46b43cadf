import { majorityVote, normalizeAnswer } from '../../agents/index.js';
import { deriveSeed, Rng } from '../../core/index.js';
import type { PromptView, SimFamily, SimProblem } from '../families/family.js';
import { type DebateAnswerLine, extractAnswer, flagsMisleadingStatement, MISLEADING_STATEMENT_FLAG, type ParsedBlockPrompt, searchTag, verdictTag } from '../../prompts/index.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { genericGuess } from './generic-guess.js';
import { simulateAnswer, type SimulatedAnswer } from './simulate-answer.js';
import { writeAnswerReply } from './write-reply.js';

/** What one worker call knows besides its prompt. */
export interface WorkerCall {
  scenario: Scenario;
  families: readonly SimFamily[];
  skill: number;
  temperature: number;
  /** The request seed: the call's own latent stream. */
  seed: number;
}

export interface StepReply {
  text: string;
  /** Reasoning steps worked, billed as hidden reasoning tokens. */
  stepsWorked: number;
}

/** Asks each family in turn to read the view; the first that recognises a problem wins. */
export function readProblem(view: PromptView, families: readonly SimFamily[]): SimProblem | undefined {
  for (const family of families) {
    const problem = family.read(view);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Writes the reply to one parsed block prompt, by step kind (docs/sim.md): answers, refines
 * (with `refineBonus`), critiques, debate turns (with persuasion), debate decisions and search
 * turns. An unknown step is answered like `answer`.
 */
export function respondToPrompt(parsed: ParsedBlockPrompt, call: WorkerCall): StepReply {
  const problem = readProblem(parsed.view, call.families);
  switch (parsed.step) {
    case 'refine':
      // A critique that named the misleading statement tells the refine to discount it.
      return answerReply(solve(problem, parsed.view, call, call.scenario.worker.refineBonus, flagsMisleadingStatement(parsed.critique ?? '')));
    case 'critique':
      return critiqueReply(problem, parsed.previousAnswer ?? '', call);
    case 'debate-turn':
      return debateTurnReply(problem, parsed, call);
    case 'debate-final':
      return debateFinalReply(problem, parsed, call);
    case 'search':
      return searchReply(problem, parsed, call);
    default:
      return answerReply(solve(problem, parsed.view, call, 0));
  }
}

function solve(problem: SimProblem | undefined, view: PromptView, call: WorkerCall, bonus: number, discountMisleading = false): SimulatedAnswer {
  if (problem === undefined) return genericGuess(view.subTask, call.seed);
  // A recognised sub-task that is not the original question was written by the orchestrator: a hand-off.
  const handoff = problem.recognised && view.subTask.trim() !== view.originalQuestion.trim();
  return simulateAnswer(problem, { scenario: call.scenario, skill: call.skill, temperature: call.temperature, seed: call.seed, bonus, handoff, discountMisleading });
}

function answerReply(solved: SimulatedAnswer): StepReply {
  return { text: writeAnswerReply(solved.reasoning, solved.answer), stepsWorked: solved.stepsWorked };
}

/**
 * The critic compares the reviewed answer with the correct one and says `incorrect` with
 * probability `detect` when it is wrong and `falseAlarm` when it is right. When the prompt holds
 * a statement that the text itself undermines (a planted note, a shown rumour), a wrong answer is
 * checked against that statement, which a critic does far better than finding a slip of
 * reasoning: it says `incorrect` with probability `noteDetect` and names the statement
 * (MISLEADING_STATEMENT_FLAG), so the refine can discount it. On a problem no family reads it
 * cannot check anything and says `incorrect` with probability `falseAlarm`.
 */
function critiqueReply(problem: SimProblem | undefined, previousText: string, call: WorkerCall): StepReply {
  const reviewed = normalizeAnswer(extractAnswer(previousText).answer);
  const { detect, falseAlarm, noteDetect } = call.scenario.worker.critic;
  const wrong = problem !== undefined && reviewed !== normalizeAnswer(problem.correctAnswer);
  const misled = problem !== undefined && wrong && noteDetect > 0 && problem.steps.some((step) => step.misled);
  const incorrect = new Rng(deriveSeed(call.seed, 'critic')).chance(misled ? noteDetect : wrong ? detect : falseAlarm);
  const raw = extractAnswer(previousText).answer;
  const shown = raw === '' ? '(no answer)' : raw;
  const text = !incorrect
    ? `I checked each step of the previous answer ${shown}; it holds.\n${verdictTag('correct')}`
    : misled
      ? `The previous answer ${shown} does not follow from the sub-task. ${MISLEADING_STATEMENT_FLAG}\n${verdictTag('incorrect')}`
      : `Checking the previous answer ${shown} step by step, one of its steps does not follow from the sub-task.\n${verdictTag('incorrect')}`;
  return { text, stepsWorked: problem?.steps.length ?? 1 };
}

/**
 * A debate turn solves afresh; from round 2 on, with probability `persuasion` it adopts the
 * plurality of the other agents' answers (ties: first) when that differs from its own.
 */
function debateTurnReply(problem: SimProblem | undefined, parsed: ParsedBlockPrompt, call: WorkerCall): StepReply {
  const solved = solve(problem, parsed.view, call, 0);
  const others = parsed.otherAnswers;
  if ((parsed.round ?? 1) <= 1 || others.length === 0) return answerReply(solved);
  const plurality = pluralityAnswer(others);
  if (plurality === undefined || normalizeAnswer(plurality) === normalizeAnswer(solved.answer)) {
    return answerReply({ ...solved, reasoning: [...solved.reasoning, 'This agrees with the other agents.'] });
  }
  const persuaded = new Rng(deriveSeed(call.seed, 'persuasion')).chance(call.scenario.worker.persuasion);
  const reasoning = persuaded
    ? [...solved.reasoning, `I got ${solved.answer}, but the other agents' case for ${plurality} convinces me.`]
    : [...solved.reasoning, `The other agents say ${plurality}, but I keep my result.`];
  return { text: writeAnswerReply(reasoning, persuaded ? plurality : solved.answer), stepsWorked: solved.stepsWorked };
}

/** The final decision: plurality of the last round's answers (ties: first); solves when the debate shows none. */
function debateFinalReply(problem: SimProblem | undefined, parsed: ParsedBlockPrompt, call: WorkerCall): StepReply {
  let lastRound = 0;
  for (const line of parsed.debateAnswers) lastRound = Math.max(lastRound, line.round);
  const finalTurns = parsed.debateAnswers.filter((line) => line.round === lastRound);
  const vote = majorityVote(finalTurns.map((line) => line.answer));
  const decision = finalTurns[vote.winnerIndex]?.answer;
  if (decision === undefined) return answerReply(solve(problem, parsed.view, call, 0));
  const summary = vote.votes.map((entry) => `${entry.answer} (${entry.count})`).join(', ');
  const reasoning = [`Final round answers: ${summary}.`, `The agents mostly settled on ${decision}.`];
  return { text: writeAnswerReply(reasoning, decision), stepsWorked: 1 };
}

/** A search turn asks for the first missing fact while searches are left, else answers from the context. */
function searchReply(problem: SimProblem | undefined, parsed: ParsedBlockPrompt, call: WorkerCall): StepReply {
  const query = problem !== undefined && (parsed.iterationsLeft ?? 1) > 0 ? problem.nextQuery() : undefined;
  if (query === undefined) return answerReply(solve(problem, parsed.view, call, 0));
  return { text: `I still need a fact that the context does not give.\n${searchTag(query)}`, stepsWorked: 1 };
}

/** The first-seen answer (as written) of the largest group of equal normalised answers. */
function pluralityAnswer(lines: readonly DebateAnswerLine[]): string | undefined {
  const vote = majorityVote(lines.map((line) => line.answer));
  return vote.winnerIndex >= 0 ? lines[vote.winnerIndex]?.answer : undefined;
}
