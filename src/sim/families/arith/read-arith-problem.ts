import { Rng } from '../../../core/index.js';
import type { PromptView, SimProblem, SimStep, SolveResult, StepOutcome } from '../family.js';
import { applyRelation, formatNumber, relationDifficulty, relationExpression } from './arith-graph.js';
import type { ParsedArithQuestion } from './parse-arith-question.js';
import { parseSubTask } from './parse-sub-task.js';
import { independentParts } from './independent-parts.js';
import { planSteps } from './plan-steps.js';
import { wrongStep } from './wrong-step.js';
import { nounPhrase } from './vocabulary.js';

function subject(id: string): string {
  const phrase = nounPhrase(id);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/**
 * The problem a prompt poses about a parsed arith task. The sub-task decides the targets and
 * the given values (see parseSubTask); an unrecognised sub-task is read as the whole task. One
 * `compute` step per relation to work out; the answer a flawless worker gives is computed with
 * the givens, while `correctAnswer` is the truth from the statement alone, so a wrong upstream
 * answer makes even a flawless worker wrong.
 */
export function readArithProblem(parsed: ParsedArithQuestion, view: PromptView): SimProblem {
  const { graph, values } = parsed;
  const request = parseSubTask(view.subTask, view.originalQuestion, parsed);
  const targets = request?.targets ?? graph.targets;
  const givens = request?.givens ?? new Map<string, number>();
  const plan = planSteps(graph, targets, givens);
  const steps: SimStep[] = plan.order.map((id) => {
    const definition = graph.definitions.get(id);
    return {
      key: id,
      kind: 'compute',
      difficulty: definition === undefined || definition.kind === 'given' ? 1 : relationDifficulty(definition),
      evidence: 'not_needed',
      misled: graph.notes.has(id),
    };
  });

  const solve = (outcome: (step: SimStep, index: number) => StepOutcome): SolveResult => {
    const worked = new Map<string, number>();
    const valueOf = (id: string): number => givens.get(id) ?? worked.get(id) ?? values.get(id) ?? 0;
    const reasoning: string[] = [];
    steps.forEach((step, index) => {
      const definition = graph.definitions.get(step.key);
      if (definition === undefined || definition.kind === 'given') return;
      const inputs = definition.parents.map(valueOf);
      const correct = applyRelation(definition.kind, inputs, definition.constant);
      const result = outcome(step, index);
      const planted = graph.notes.get(step.key);
      if (result.ok) {
        worked.set(step.key, correct);
        reasoning.push(`${subject(step.key)} is ${relationExpression(definition.kind, inputs, definition.constant)} = ${formatNumber(correct)}.`);
      } else if (result.planted && planted !== undefined) {
        worked.set(step.key, planted);
        reasoning.push(`${subject(step.key)} is ${formatNumber(planted)} (as a note in the text claims).`);
      } else {
        const work = wrongStep(new Rng(result.wrongSeed), definition, inputs, correct);
        worked.set(step.key, work.value);
        reasoning.push(`${subject(step.key)} is ${work.expression} = ${formatNumber(work.value)}.`);
      }
    });
    for (const target of targets) {
      if (worked.has(target)) continue;
      const source = givens.has(target) ? 'given' : 'stated';
      reasoning.push(`${subject(target)} is ${formatNumber(valueOf(target))} (${source}).`);
    }
    return { answer: targets.map((id) => formatNumber(valueOf(id))).join(', '), reasoning };
  };

  return {
    family: 'arith',
    taskKey: parsed.taskKey,
    recognised: request !== undefined,
    steps,
    // Misleading notes are not counted: the competence model charges them per step (`misled`).
    distractorCount: graph.definitions.size - plan.neededStatements,
    parts: independentParts(graph, targets, plan.order),
    correctAnswer: targets.map((id) => formatNumber(values.get(id) ?? 0)).join(', '),
    solve,
    // Everything an arith problem needs is in its statement.
    nextQuery: () => undefined,
  };
}
