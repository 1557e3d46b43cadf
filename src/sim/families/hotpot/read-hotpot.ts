import { Rng } from '../../../core/index.js';
import type { PromptView, SimProblem, SimStep, StepOutcome } from '../family.js';
import { entitySpans } from './entity-spans.js';
import type { HotpotRecord } from './hotpot-record.js';

/** How often a wrong answer is taken from the place a model would most likely slip (see pickWrongAnswer). */
const PREFERRED_SOURCE_SHARE = 0.7;
/** Characters of a paragraph quoted in a reasoning line. */
const QUOTE_CHARS = 120;
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen'];
/** Paragraph texts whose spans are kept; the same few paragraphs are shown to many calls. */
const MAX_CACHED_SPAN_TEXTS = 4_096;
const spanCache = new Map<string, string[]>();

function cachedSpans(text: string): string[] {
  let spans = spanCache.get(text);
  if (spans === undefined) {
    if (spanCache.size >= MAX_CACHED_SPAN_TEXTS) spanCache.clear();
    spans = entitySpans(text);
    spanCache.set(text, spans);
  }
  return spans;
}

/** What the reader needs of one record. */
export interface HotpotQuestion {
  id: string;
  question: string;
  answer: string;
  type: string;
  /** Titles of the supporting paragraphs, in the order the record first cites them. */
  supportingTitles: string[];
}

/** Supporting titles of a record, each once, in first-cited order. */
export function supportingTitles(record: HotpotRecord): string[] {
  return [...new Set(record.supporting_facts.map(([title]) => title))];
}

/**
 * Builds the hotpot reader. It recognises a task by the exact text of its question; the steps
 * are one `read` per supporting paragraph, with evidence in context when a document of that
 * title was shown. A sub-task other than the question itself is not understood (this family
 * only decomposes into the whole question), so the whole task is read.
 */
export function createHotpotReader(questions: readonly HotpotQuestion[]): (view: PromptView) => SimProblem | undefined {
  const byText = new Map<string, HotpotQuestion>();
  for (const question of questions) if (!byText.has(squash(question.question))) byText.set(squash(question.question), question);

  return (view) => {
    const question = byText.get(squash(view.originalQuestion));
    if (question === undefined) return undefined;
    const shown = new Set(view.documents.flatMap((document) => [document.title, document.id]));
    const supporting = new Set(question.supportingTitles);
    const steps: SimStep[] = question.supportingTitles.map((title) => ({
      key: `read:${title}`,
      kind: 'read',
      difficulty: 1,
      evidence: shown.has(title) ? 'in_context' : 'absent',
      misled: false,
    }));
    return {
      family: 'hotpot',
      taskKey: `hotpot:${question.id}`,
      recognised: squash(view.subTask) === squash(question.question),
      steps,
      distractorCount: view.documents.filter((document) => !supporting.has(document.title) && !supporting.has(document.id)).length,
      correctAnswer: question.answer,
      solve: (outcome) => solveHotpot(question, view, steps, outcome),
      nextQuery: () => nextHotpotQuery(question, view, steps),
    };
  };
}

function solveHotpot(question: HotpotQuestion, view: PromptView, steps: readonly SimStep[], outcome: (step: SimStep, index: number) => StepOutcome) {
  let wrong: string | undefined;
  const reasoning = steps.map((step, index) => {
    const title = question.supportingTitles[index] as string;
    const result = outcome(step, index);
    if (!result.ok) {
      if (wrong !== undefined) return `${title} seems to agree with ${wrong}.`;
      wrong = pickWrongAnswer(question, view, result.wrongSeed);
      return `Reading about ${title}, I take the answer to be ${wrong}.`;
    }
    const document = view.documents.find((candidate) => candidate.title === title || candidate.id === title);
    return document === undefined ? `From memory, ${title} is the relevant fact.` : `According to ${title}: ${quote(document.text)}`;
  });
  return { answer: wrong ?? question.answer, reasoning };
}

/**
 * A plausible wrong answer, seeded: the other choice of a yes/no question, a nearby number for
 * a numeric one (digits or a number word), and otherwise an entity-like span other than the gold answer, mostly from the
 * retrieved paragraphs (for comparison questions, mostly from the question, whose two
 * candidates are the usual slip).
 */
function pickWrongAnswer(question: HotpotQuestion, view: PromptView, seed: number): string {
  const rng = new Rng(seed);
  const gold = question.answer.trim().toLowerCase();
  if (gold === 'yes' || gold === 'no') return gold === 'yes' ? 'no' : 'yes';
  const differs = (span: string) => span.toLowerCase() !== gold && !gold.includes(span.toLowerCase());
  const fromQuestion = cachedSpans(question.question).filter(differs);
  const fromDocuments = view.documents.flatMap((document) => [...cachedSpans(document.title), ...cachedSpans(document.text)]).filter(differs);
  const numberWord = NUMBER_WORDS.indexOf(gold);
  if (numberWord >= 0) {
    const delta = rng.int(1, 3);
    const down = numberWord - delta;
    return NUMBER_WORDS[down >= 0 && (numberWord + delta >= NUMBER_WORDS.length || rng.chance(0.5)) ? down : numberWord + delta] as string;
  }
  if (/^\d[\d,]*$/.test(gold)) {
    const numbers = fromDocuments.filter((span) => /^\d/.test(span));
    if (numbers.length > 0 && rng.chance(PREFERRED_SOURCE_SHARE)) return rng.pick(numbers);
    return String(Number(gold.replace(/,/g, '')) + (rng.chance(0.5) ? 1 : -1) * rng.int(1, 10));
  }
  const names = (spans: string[]) => spans.filter((span) => !/^\d/.test(span));
  const [preferred, other] = question.type === 'comparison' ? [names(fromQuestion), names(fromDocuments)] : [names(fromDocuments), names(fromQuestion)];
  if (preferred.length > 0 && (other.length === 0 || rng.chance(PREFERRED_SOURCE_SHARE))) return rng.pick(preferred);
  if (other.length > 0) return rng.pick(other);
  return 'unknown';
}

/**
 * What a model searches next: the question itself until a supporting paragraph is in view; then
 * the missing paragraph's title (without a `(disambiguation)` part) when the retrieved text or
 * the question names it, the bridge a model would follow; else the question again.
 */
function nextHotpotQuery(question: HotpotQuestion, view: PromptView, steps: readonly SimStep[]): string | undefined {
  const missing = steps.findIndex((step) => step.evidence === 'absent');
  if (missing < 0) return undefined;
  if (!steps.some((step) => step.evidence === 'in_context')) return question.question;
  const bridge = (question.supportingTitles[missing] as string).replace(/\s*\([^)]*\)\s*$/, '').trim();
  const seen = `${question.question}\n${view.documents.map((document) => document.text).join('\n')}`.toLowerCase();
  return bridge !== '' && seen.includes(bridge.toLowerCase()) ? bridge : question.question;
}

function quote(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= QUOTE_CHARS ? trimmed : `${trimmed.slice(0, QUOTE_CHARS).trimEnd()}...`;
}

function squash(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
