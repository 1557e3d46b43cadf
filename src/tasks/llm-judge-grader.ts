import { type EventSink, type Grade, ModelBehaviorError, type Task, type Usage, type UsageEvent } from '../core/index.js';
import type { ChatProvider } from '../llm/index.js';

/**
 * The judge prompt, after the grader template of BrowseComp (Wei et al., 2025, openai/simple-evals
 * `browsecomp_eval.py`): extract the final answer, reason only about whether it matches the
 * reference, then say `correct: yes` or `correct: no`. Placeholders: `{question}`, `{response}`,
 * `{correct_answer}`.
 */
export const JUDGE_TEMPLATE = `Judge whether the following [response] to [question] is correct, based on the precise and unambiguous [correct_answer] below.

[question]: {question}

[response]: {response}

[correct_answer]: {correct_answer}

Write your judgement in exactly this format:

extracted_final_answer: the final exact answer extracted from the [response], or 'None' if it gives no exact final answer.

reasoning: explain why extracted_final_answer is or is not correct given [correct_answer], looking only at meaningful differences between the two. Do not solve the problem yourself, do not discuss background, and do not argue for any answer other than [correct_answer].

correct: 'yes' if extracted_final_answer matches [correct_answer], or is within a small margin of error for numerical problems; 'no' otherwise, i.e. if there is any inconsistency, ambiguity, non-equivalence, or if the extracted answer is wrong.`;

/**
 * A `correct: yes|no` line; before it on its line, blanks, `*`, `_`, `#`, `>` and `-` (and before
 * `extracted_final_answer`, blanks, `*` and `_`). Line terminators are left out of those prefixes,
 * so each line's prefix is scanned once: with `\s` (which spans lines) every line start rescanned
 * the following run of blank lines, quadratic on a reply of many newlines (40,000 took 2.7 s).
 * The verdicts found are the same: a match whose prefix spans lines is also one from its last line.
 */
const VERDICT = /^(?:[*_#>-]|[^\S\n\r\u2028\u2029])*correct[\s*_]*:[\s*_]*(yes|no)\b/gim;
const EXTRACTED_ANSWER = /^(?:[*_]|[^\S\n\r\u2028\u2029])*extracted_final_answer[\s*_]*:[\s*_]*(.+)$/im;

export interface LlmJudgeGraderOptions {
  /** Answers the `judge` slot. */
  provider: ChatProvider;
  /** Overrides the judge slot's model. @default the provider's judge model */
  model?: string;
  /** @default 0 (a verdict should not be sampled) */
  temperature?: number;
  /** @default 1024 */
  maxTokens?: number;
  /** @default JUDGE_TEMPLATE */
  template?: string;
  /** A `usage` event (role `verification`) once per judge call, so a report can book its tokens. */
  events?: EventSink<UsageEvent>;
  /** Per-call abort signal. */
  signal?: AbortSignal;
}

/** A judge's grade: the Grade plus the verification tokens it cost and its reasoning. */
export interface JudgeGrade extends Grade {
  /** Tokens of the judge call: verification, never execution. */
  usage: Usage;
  judgeResponse: string;
  extractedAnswer?: string;
}

/**
 * An LLM-judge grader in the BrowseComp style: one `judge`-slot call per answer, with the
 * question, the response and the gold answer (aliases listed after it), parsed for the last
 * `correct: yes|no` line. For answers no rule can grade (web research, free-form QA).
 *
 * Token accounting: the judge's tokens are verification tokens. They are returned on the grade
 * (`usage`) and sent as a `usage` event; the caller adds them to `episode.usage.verification` and may
 * store the bare Grade with `splitGradeUsage`. A reply with no verdict throws ModelBehaviorError
 * (after the `usage` event), so a judge failure is never mistaken for a wrong answer.
 *
 * @example
 * const grader = createLlmJudgeGrader({ provider, events: (event) => verificationTokens.push(event.usage) });
 * const grade = await grader(task, 'Malia and Sasha'); // { correct: true, method: 'llm_judge', usage: {...}, ... }
 */
export function createLlmJudgeGrader(options: LlmJudgeGraderOptions): (task: Task, answer: string) => Promise<JudgeGrade | undefined> {
  const { provider, model, temperature = 0, maxTokens = 1024, template = JUDGE_TEMPLATE, events, signal } = options;
  return async (task, answer) => {
    if (task.answer === undefined) return undefined;
    const aliases = task.answerAliases ?? [];
    const correctAnswer = aliases.length > 0 ? `${task.answer} (also accepted: ${aliases.join('; ')})` : task.answer;
    const prompt = fillTemplate(template, { question: task.question, response: answer, correct_answer: correctAnswer });
    const response = await provider.chat({
      slot: 'judge',
      messages: [{ role: 'user', content: prompt }],
      temperature,
      maxTokens,
      ...(model !== undefined && { model }),
      ...(signal !== undefined && { signal }),
    });
    events?.({ type: 'usage', role: 'verification', usage: response.usage });
    const verdicts = [...response.text.matchAll(VERDICT)];
    const verdict = verdicts.at(-1)?.[1]?.toLowerCase();
    if (verdict === undefined) {
      throw new ModelBehaviorError(`the judge (${response.model}) gave no "correct: yes|no" line; its reply began: ${JSON.stringify(response.text.slice(0, 200))}`);
    }
    const extracted = EXTRACTED_ANSWER.exec(response.text)?.[1]?.trim();
    return {
      correct: verdict === 'yes',
      method: 'llm_judge',
      usage: response.usage,
      judgeResponse: response.text,
      ...(extracted !== undefined && { extractedAnswer: extracted }),
    };
  };
}

/** Replaces `{name}` placeholders in one pass, so text inside a value is never substituted again. */
function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(question|response|correct_answer)\}/g, (whole, name: string) => values[name] ?? whole);
}
