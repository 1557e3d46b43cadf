import { LRUCache } from 'lru-cache';
import { InvalidInputError, zodIssues } from '../../../core/index.js';
import type { ArithFamilyConfig } from '../../scenario/scenario-schema.js';
import { ArithFamilySchema } from '../../scenario/scenario-schema.js';
import type { SimFamily } from '../family.js';
import { decomposeArith } from './decompose-arith.js';
import { generateArithTasks } from './generate-arith-tasks.js';
import type { ParsedArithQuestion } from './parse-arith-question.js';
import { parseArithQuestion } from './parse-arith-question.js';
import { readArithProblem } from './read-arith-problem.js';

/** Parsed questions kept per family (a few KB each); the oldest is dropped beyond this. Far above the tasks in flight at once. */
export const MAX_CACHED_QUESTIONS = 2_048;

/**
 * The `arith` family: iGSM-like problems over a random graph of quantities (see docs/sim.md).
 * `read` and `decompose` parse the question text back into its graph, caching the parse by
 * question text (texts that are not arith are cached too, as misses), so each prompt costs one
 * map lookup plus the walk over the relations it needs.
 *
 * @example
 * const family = createArithFamily(ArithFamilySchema.parse({}));
 * const [task] = family.generate({ count: 1, rng: new Rng(7), idPrefix: 'train' });
 * const problem = family.read({ subTask: task.question, originalQuestion: task.question, documents: [] });
 * problem?.solve(() => ({ ok: true })).answer === task.answer; // true
 */
export function createArithFamily(config: ArithFamilyConfig): SimFamily {
  const checked = ArithFamilySchema.safeParse(config);
  if (!checked.success) throw new InvalidInputError('arith family config', zodIssues(checked.error), 'Fix families.arith in the scenario file.');
  const settings = checked.data;
  // lru-cache: a Map trimmed at its first key walks its deleted entries (see TrainedRewardModel).
  const cache = new LRUCache<string, ParsedArithQuestion | false>({ max: MAX_CACHED_QUESTIONS });

  const parse = (text: string): ParsedArithQuestion | undefined => {
    const cached = cache.get(text);
    if (cached !== undefined) return cached === false ? undefined : cached;
    const parsed = parseArithQuestion(text);
    cache.set(text, parsed ?? false);
    return parsed;
  };

  return {
    name: 'arith',
    generate: (options) => generateArithTasks(settings, options),
    read(view) {
      const parsed = parse(view.originalQuestion);
      return parsed === undefined ? undefined : readArithProblem(parsed, view);
    },
    decompose(question, granularity) {
      const parsed = parse(question);
      return parsed === undefined ? undefined : decomposeArith(parsed, question, granularity);
    },
    // Everything an arith problem needs is in its statement: nothing to search.
    corpus: () => [],
  };
}
