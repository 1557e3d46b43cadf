import { createBlockRegistry } from '../../agents/index.js';
import { deriveSeed, fnv1a32, type Retriever, Rng } from '../../core/index.js';
import type { ChatProvider, ChatRequest, ChatResponse } from '../../llm/index.js';
import { parsePlan } from '../../plan/index.js';
import { choiceTag, type ParsedJudgePrompt, readJudgePrompt } from '../../prompts/index.js';
import type { SimFamily } from '../families/family.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { countMessageTokensFast, countTokensFast } from '../worker/count-tokens-fast.js';
import { createSimWorker } from '../worker/create-sim-worker.js';
import { readProblem } from '../worker/respond-to-prompt.js';
import { imaginedLogit, PlanSuccessEstimator } from './estimate-plan-success.js';
import { pickTrajectory } from './pick-trajectory.js';

export interface SimJudgeOptions {
  /** `judge` knobs, token costs, and the seed (the plan judge imagines with a seed derived from it). */
  scenario: Scenario;
  /** Read the question to know the task's correct answer; run the plan judge's imagined executions. */
  families: readonly SimFamily[];
  /** Search blocks in imagined executions retrieve from it. */
  retriever: Retriever;
}

/**
 * The simulated judge models of Best-of-N (issue 6; docs/select.md): a ChatProvider answering
 * the judge prompts (src/prompts/judge-prompts.ts, read with `readJudgePrompt`) with `<choice>k</choice>`.
 *
 * - Trajectory judge (`Judge: trajectories`): recognises the task through the families (which
 *   give its correct answer) and picks a correct candidate with probability
 *   sigmoid(trajectorySkill - lengthPenalty * ln N) when one exists, else the most common wrong
 *   answer (`pickTrajectory`).
 * - Plan judge (`Judge: plans`): estimates each plan's chance of success from `imaginedRuns`
 *   imagined executions in a world with its own latent draws, adds Gaussian noise of sd
 *   `planNoise` on the logit, and picks the highest (first on ties).
 *
 * Deterministic in the request (seed and messages). Usage is the server's: prompt tokens by the
 * fast o200k count of the prompt, completion tokens by the count of the reply plus
 * `reasoningTokensPerCandidate` per candidate read (hidden reasoning).
 */
export function createSimJudge(options: SimJudgeOptions): ChatProvider {
  const { scenario, families, retriever } = options;
  const imaginedWorld: Scenario = { ...scenario, seed: deriveSeed(scenario.seed, 'sim-judge:imagination') };
  const blocks = createBlockRegistry();
  const estimator = new PlanSuccessEstimator({
    worker: createSimWorker({ scenario: imaginedWorld, families }),
    blocks,
    retriever,
    runs: scenario.judge.imaginedRuns,
  });
  return {
    name: 'sim-judge',
    async chat(request: ChatRequest): Promise<ChatResponse> {
      request.signal?.throwIfAborted();
      const prompt = readJudgePrompt(request.messages);
      const text = prompt === undefined || prompt.candidates.length === 0 ? 'There is no candidate to choose from.' : await decide(prompt, request.seed ?? 0);
      const promptTokens = countMessageTokensFast(request.messages);
      const completionTokens = countTokensFast(text) + scenario.judge.reasoningTokensPerCandidate * (prompt?.candidates.length ?? 0);
      return {
        text,
        usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
        usageSource: 'provider',
        latencyMs: 0,
        model: 'sim-judge',
        attempts: 1,
        cached: false,
        finishReason: 'stop',
      };
    },
  };

  async function decide(prompt: ParsedJudgePrompt, seed: number): Promise<string> {
    const rng = new Rng(deriveSeed(seed, `sim-judge:${prompt.kind}:${fnv1a32(prompt.question)}:${prompt.candidates.length}`));
    const problem = readProblem({ subTask: prompt.question, originalQuestion: prompt.question, documents: [] }, families);
    if (prompt.kind === 'trajectories') {
      const answers = prompt.candidates.map((candidate) => candidate.finalAnswer);
      const choice = pickTrajectory(answers, problem?.correctAnswer, scenario.judge, rng);
      return `Candidate ${choice + 1}'s reasoning holds up best and its answer ${answers[choice] || '(none)'} follows from it.\n${choiceTag(choice)}`;
    }
    const runs = scenario.judge.imaginedRuns;
    const logits = await Promise.all(
      prompt.candidates.map(async (candidate) => {
        // Without a recognised task every valid plan looks the same to the judge: noise decides.
        if (problem === undefined) return parsePlan(candidate.plan, { catalog: blocks }).ok ? 0 : Number.NEGATIVE_INFINITY;
        return imaginedLogit(await estimator.successes(prompt.question, problem.correctAnswer, candidate.plan), runs);
      }),
    );
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    logits.forEach((logit, index) => {
      const score = logit + scenario.judge.planNoise * rng.normal();
      if (score > bestScore) [best, bestScore] = [index, score];
    });
    return `Plan ${best + 1} looks the most likely to work out for this question.\n${choiceTag(best)}`;
  }
}
