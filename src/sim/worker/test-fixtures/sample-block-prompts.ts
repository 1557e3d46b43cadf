import {
  answerPrompt,
  critiquePrompt,
  debateFinalPrompt,
  debateTurnPrompt,
  refinePrompt,
  searchFeedbackMessage,
  searchStartPrompt,
} from '../../../prompts/block-prompts.js';
import type { ChatMessage } from '../../../core/llm-call.js';
import { Rng } from '../../../core/rng.js';
import { TaskSchema } from '../../../core/task.js';
import { chainQuestion } from './fake-family.js';

/** Block prompts of every step kind over generated arithmetic and encyclopedic text. */
export function sampleBlockPrompts(count: number): ChatMessage[][] {
  const rng = new Rng(5);
  const names = ['Marta Okafor', 'Jonas Lindqvist', 'Priya Raman', 'Helix Dynamics', 'Port Elsen', 'Vantor Labs'];
  const prose = () =>
    `${rng.pick(names)} was born in ${rng.int(1900, 1999)} in ${rng.pick(names)}. ${rng.pick(names)} founded the company, which employs ${rng.int(10, 90_000)} people and is headquartered in ${rng.pick(names)}; its revenue grew by ${rng.int(1, 40)}% in the last year.`;
  const prompts: ChatMessage[][] = [];
  for (let index = 0; index < count; index++) {
    const adds = Array.from({ length: rng.int(2, 8) }, () => rng.int(1, 999));
    const task = TaskSchema.parse({ id: `t${index}`, question: `${chainQuestion({ id: `q${index}`, start: rng.int(1, 50), adds, notes: rng.int(0, 4) })} ${prose()}` });
    const subject = { task, input: index % 2 === 0 ? task.question : `What is the total after the first ${adds.length - 1} additions?` };
    const output = `${adds.map((add, step) => `Adding ${add} gives ${step * 7 + add}.`).join('\n')}\n<answer>${rng.int(1, 9_999)}</answer>`;
    const turn = (role: string) => ({ role, answer: String(rng.int(1, 999)), output });
    const documents = Array.from({ length: 5 }, (_, document) => ({ id: `doc-${index}-${document}`, title: rng.pick(names), text: `${prose()} ${prose()}`, score: 1 }));
    const search = searchStartPrompt(subject, 3);
    prompts.push(
      answerPrompt(subject),
      critiquePrompt(subject, output),
      refinePrompt(subject, output, 'Step 2 adds the wrong amount.\n<verdict>incorrect</verdict>'),
      debateTurnPrompt(subject, { role: 'Economist', round: 1, rounds: 3, own: turn('Economist'), others: [turn('Analyst'), turn('Skeptic')] }),
      debateFinalPrompt(subject, { rounds: [[turn('Economist'), turn('Analyst')], [turn('Economist'), turn('Analyst')]] }),
      [...search, { role: 'assistant', content: '<search>code of Marta</search>' }, searchFeedbackMessage({ query: 'code of Marta', documents, iterationsLeft: 2 })],
    );
  }
  return prompts;
}
