import type { Rng } from '../../../core/index.js';
import type { Relation, RelationKind } from './arith-graph.js';
import { applyRelation, relationExpression } from './arith-graph.js';

/** What a failed step writes: its (wrong) value and the arithmetic it shows. */
export interface StepWork {
  value: number;
  expression: string;
}

const SLIPS = [1, 1, 2, 3, 10] as const;

function offBy(rng: Rng, correct: number): number {
  const delta = rng.pick(SLIPS);
  return correct - delta >= 0 && rng.chance(0.5) ? correct - delta : correct + delta;
}

/** A digit slip: two neighbouring digits swapped, or one digit off by one. */
function digitSlip(rng: Rng, correct: number): number {
  if (!Number.isInteger(correct) || correct < 10) return offBy(rng, correct);
  const digits = String(correct).split('');
  const position = rng.int(0, digits.length - 2);
  const [left = '0', right = '0'] = [digits[position], digits[position + 1]];
  if (left !== right && rng.chance(0.5)) {
    digits[position] = right;
    digits[position + 1] = left;
  } else {
    const index = position + 1;
    digits[index] = String((Number(digits[index]) + (rng.chance(0.5) ? 1 : 9)) % 10);
  }
  return Number(digits.join(''));
}

/** The operation a confused reader applies instead: forgetting a term, or adding for subtracting, scaling or multiplying. */
function wrongOperation(rng: Rng, relation: Relation, inputs: readonly number[]): StepWork {
  const [first = 0, second = 0] = inputs;
  let kind: RelationKind = 'sum';
  let used: readonly number[] = inputs;
  let constant = 0;
  switch (relation.kind) {
    case 'sum': {
      if (inputs.length >= 3) {
        const dropped = rng.int(0, inputs.length - 1);
        used = inputs.filter((_, index) => index !== dropped);
      } else {
        kind = 'difference';
        used = first >= second ? [first, second] : [second, first];
      }
      break;
    }
    case 'difference':
    case 'product':
      break;
    case 'times':
    case 'fewer':
      kind = 'more';
      used = [first];
      constant = relation.constant;
      break;
    case 'more':
      kind = first >= relation.constant ? 'fewer' : 'times';
      used = [first];
      constant = relation.constant;
      break;
  }
  return { value: applyRelation(kind, used, constant), expression: relationExpression(kind, used, constant) };
}

/**
 * A plausible wrong result for a relation over `inputs` whose right value is `correct`: off by a
 * little, the wrong operation, or a digit slip, each a third of the time. Always a value different
 * from `correct`, and non-negative when `correct` is; the same `rng` seed and inputs give the same mistake.
 */
export function wrongStep(rng: Rng, relation: Relation, inputs: readonly number[], correct: number): StepWork {
  const expression = relationExpression(relation.kind, inputs, relation.constant);
  const mode = rng.int(0, 2);
  let work: StepWork =
    mode === 0 ? { value: offBy(rng, correct), expression } : mode === 1 ? wrongOperation(rng, relation, inputs) : { value: digitSlip(rng, correct), expression };
  if (work.value === correct || (work.value < 0 && correct >= 0) || !Number.isFinite(work.value)) work = { value: correct + 1, expression };
  return work;
}
