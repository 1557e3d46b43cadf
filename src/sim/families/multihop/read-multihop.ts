import { deriveSeed, fnv1a32 } from '../../../core/index.js';
import type { PromptView, SimProblem, SimStep, StepOutcome } from '../family.js';
import { followRelation, lookupEntity, sameValue, valueName, type KbValue, type KnowledgeBase } from './knowledge-base.js';
import { isFamous, rumourKey, type Rumour } from './famous-entities.js';
import type { MultihopWorld } from './multihop-world.js';
import { pickWrongValue } from './pick-wrong-value.js';
import { parseQuestion, type ParsedQuestion } from './question-grammar.js';
import { entityDocumentId, type KbCorpus } from './render-corpus.js';
import { fillTemplate, RELATIONS, type RelationName } from './relations.js';

/** The correct answer of a question about an entity the knowledge base does not hold. */
export const UNKNOWN_ANSWER = 'unknown';
/** Parsed question texts kept; prompts repeat the same few texts many times per task. */
const MAX_CACHED_QUESTIONS = 10_000;

/**
 * Builds the multihop reader: it parses the original question and the sub-task with the
 * question grammar, resolves the sub-task's anchor as written (an upstream answer substituted
 * in), and returns one `lookup` step per hop whose evidence is in context when the hop subject's
 * own document, stating the fact, is among the prompt's documents. A hop about a famous entity
 * is `famous` (recalled well without search); a hop whose rumour document is among the prompt's
 * documents is `misled`, and its failure gives the rumour's value.
 */
export function createMultihopReader(world: MultihopWorld, { failuresAvoidAnswer = false }: { failuresAvoidAnswer?: boolean } = {}): (view: PromptView) => SimProblem | undefined {
  const { kb, corpus, famous, rumours } = world;
  const cache = new Map<string, ParsedQuestion | null>();
  const parse = (text: string): ParsedQuestion | undefined => {
    let parsed = cache.get(text);
    if (parsed === undefined) {
      if (cache.size >= MAX_CACHED_QUESTIONS) cache.clear();
      parsed = parseQuestion(text) ?? null;
      cache.set(text, parsed);
    }
    return parsed ?? undefined;
  };

  return (view) => {
    const original = parse(view.originalQuestion);
    if (original === undefined) return undefined;
    const sameText = squash(view.subTask) === squash(view.originalQuestion);
    const sub = sameText ? original : parse(view.subTask);
    const asked = sub ?? original;
    const subjects = walkChain(kb, asked);
    const offset = sub === undefined || sameText ? 0 : alignHop(original.chain, walkChain(kb, original), asked.chain, subjects[0]);

    const steps: SimStep[] = asked.chain.map((relation, hop) => {
      const subject = subjects[hop];
      return {
        key: `${offset + hop}:${relation}:${subject === undefined ? `unknown ${asked.anchorText}` : valueName(kb, subject)}`,
        kind: 'lookup',
        difficulty: 1,
        evidence: subject !== undefined && statesFact(kb, corpus, view.documents, relation, subject) ? 'in_context' : 'absent',
        misled: shownRumour(rumours, view.documents, relation, subject) !== undefined,
        famous: isFamous(famous, subject),
      };
    });
    const needed = new Set(subjects.map((subject) => (subject === undefined ? undefined : entityDocumentId(subject))));
    const answer = subjects[asked.chain.length];

    return {
      family: 'multihop',
      taskKey: `multihop:${fnv1a32(squash(view.originalQuestion)).toString(16)}`,
      recognised: sub !== undefined,
      steps,
      distractorCount: view.documents.filter((document) => !needed.has(document.id)).length,
      correctAnswer: answer === undefined ? UNKNOWN_ANSWER : valueName(kb, answer),
      solve: (outcome) => solveChain(world, view, asked, subjects[0], steps, outcome, failuresAvoidAnswer ? walkChain(kb, original)[original.chain.length] : undefined),
      nextQuery() {
        const hop = steps.findIndex((step) => step.evidence === 'absent');
        const relation = asked.chain[hop];
        if (relation === undefined) return undefined;
        // Earlier hops have their evidence, so the model knows the true subject of this one.
        const subject = subjects[hop];
        const name = subject === undefined ? asked.anchorText : valueName(kb, subject);
        return `${name} ${RELATIONS[relation].queryWords}`;
      },
    };
  };
}

/** Follows the chain for real with the drawn outcomes; a failed hop continues from its wrong value. */
function solveChain(
  world: MultihopWorld,
  view: PromptView,
  asked: ParsedQuestion,
  anchor: KbValue | undefined,
  steps: readonly SimStep[],
  outcome: (step: SimStep, index: number) => StepOutcome,
  /** The original question's right answer, which no failed hop may land on (`failuresAvoidAnswer`); undefined: no such rule. */
  answer: KbValue | undefined,
) {
  const { kb, corpus, rumours } = world;
  const reasoning: string[] = [];
  let current = anchor;
  let currentName = asked.anchorText;
  asked.chain.forEach((relation, hop) => {
    const step = steps[hop] as SimStep;
    const result = outcome(step, hop);
    const truth = current === undefined ? undefined : followRelation(kb, relation, current);
    let next: KbValue;
    const rumour = result.ok || !result.planted ? undefined : shownRumour(rumours, view.documents, relation, current);
    if (result.ok && truth !== undefined) next = truth;
    else if (rumour !== undefined) next = rumour.value;
    else {
      // With no fact to find (an entity the base does not hold), even a sound hop can only guess.
      const seed = result.ok ? deriveSeed(fnv1a32(step.key), 'no-fact') : result.wrongSeed;
      next = pickWrongValue(kb, corpus.mentions, RELATIONS[relation].target, truth, seed, view.documents, answer);
    }
    const nextName = valueName(kb, next);
    reasoning.push(fillTemplate(RELATIONS[relation].reasoning, currentName, nextName));
    current = next;
    currentName = nextName;
  });
  return { answer: currentName, reasoning };
}

/** Subject of each hop, then the answer; undefined from the point the chain leaves the base. */
function walkChain(kb: KnowledgeBase, question: ParsedQuestion): (KbValue | undefined)[] {
  const firstRelation = question.chain[0] as RelationName;
  let current = lookupEntity(kb, question.anchorText);
  if (current !== undefined && current.type !== RELATIONS[firstRelation].source) current = undefined;
  const values: (KbValue | undefined)[] = [current];
  for (const relation of question.chain) {
    current = current === undefined ? undefined : followRelation(kb, relation, current);
    values.push(current);
  }
  return values;
}

/**
 * Which hop of the original question a sub-question starts at: where its relations sit in the
 * original chain, preferring the place whose true subject is the sub-question's anchor (chains
 * can repeat a relation). 0 when it is not part of the original chain.
 */
function alignHop(originalChain: readonly RelationName[], originalSubjects: readonly (KbValue | undefined)[], chain: readonly RelationName[], anchor: KbValue | undefined): number {
  let firstFit: number | undefined;
  for (let start = 0; start + chain.length <= originalChain.length; start++) {
    if (!chain.every((relation, hop) => originalChain[start + hop] === relation)) continue;
    if (sameValue(originalSubjects[start], anchor)) return start;
    firstFit ??= start;
  }
  return firstFit ?? 0;
}

/** The rumour about this fact when its document is among those shown. */
function shownRumour(rumours: ReadonlyMap<string, Rumour>, documents: PromptView['documents'], relation: RelationName, subject: KbValue | undefined): Rumour | undefined {
  if (subject === undefined || rumours.size === 0) return undefined;
  const rumour = rumours.get(rumourKey(relation, subject));
  return rumour !== undefined && documents.some((document) => document.id === rumour.documentId) ? rumour : undefined;
}

function statesFact(kb: KnowledgeBase, corpus: KbCorpus, documents: PromptView['documents'], relation: RelationName, subject: KbValue): boolean {
  const id = entityDocumentId(subject);
  const sentence = corpus.factSentences[relation][subject.index];
  if (id === undefined || sentence === undefined) return false;
  const title = valueName(kb, subject);
  return documents.some((document) => (document.id === id || document.title === title) && document.text.includes(sentence));
}

function squash(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
