import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fnv1a32, type Task } from '../../../core/index.js';
import { loadCorpus } from '../../../tasks/index.js';
import type { HotpotFamilyConfig } from '../../scenario/scenario-schema.js';
import type { SimFamily } from '../family.js';
import { loadHotpotRecords } from './hotpot-record.js';
import { createHotpotReader, supportingTitles, type HotpotQuestion } from './read-hotpot.js';

/** Where the shared HotpotQA sample sits, relative to the working directory (see ../shared/data/SOURCES.md). */
export const DEFAULT_HOTPOT_PATH = '../shared/data/hotpotqa-dev-distractor-200.jsonl';

/** The corpus file beside a HotpotQA file: `x.jsonl` -> `x-corpus.jsonl`. */
export function defaultCorpusPath(path: string): string {
  return path.endsWith('.jsonl') ? `${path.slice(0, -'.jsonl'.length)}-corpus.jsonl` : `${path}-corpus.jsonl`;
}

/**
 * The `hotpot` family over real HotpotQA questions and their real paragraphs. Returns
 * `{available: false, reason}` when the question file or its corpus is missing, so scenarios
 * can mention the family without the data. Tasks are the file's questions in a seeded order
 * (cycled when more are asked for than the file holds); reading is simulated, retrieval over
 * `corpus()` is real.
 *
 * @example
 * const family = await loadHotpotFamily(HotpotFamilySchema.parse({}));
 * if ('available' in family) console.error(family.reason);
 */
export async function loadHotpotFamily(config: HotpotFamilyConfig): Promise<SimFamily | { available: false; reason: string }> {
  const path = resolve(process.cwd(), config.path ?? DEFAULT_HOTPOT_PATH);
  const corpusPath = config.corpusPath === undefined ? defaultCorpusPath(path) : resolve(process.cwd(), config.corpusPath);
  if (!existsSync(path)) {
    return { available: false, reason: `HotpotQA file not found at ${path}; put a HotpotQA distractor-format JSONL there or set families.hotpot.path` };
  }
  if (!existsSync(corpusPath)) {
    return { available: false, reason: `HotpotQA corpus not found at ${corpusPath}; put its {id, title, text} JSONL there or set families.hotpot.corpusPath` };
  }
  const records = await loadHotpotRecords(path);
  const documents = await loadCorpus(corpusPath);
  const questions: HotpotQuestion[] = records.map((record) => ({
    id: record._id,
    question: record.question,
    answer: record.answer,
    type: record.type,
    supportingTitles: supportingTitles(record),
  }));
  const levels = new Map(records.map((record) => [record._id, record.level]));
  const questionTexts = new Set(questions.map((question) => squash(question.question)));
  return {
    name: 'hotpot',
    generate({ count, rng, idPrefix }) {
      const order = rng.shuffle(questions);
      return Array.from({ length: count }, (_, n): Task => {
        const question = order[n % order.length] as HotpotQuestion;
        const level = levels.get(question.id) ?? 'unknown';
        return {
          id: `${idPrefix}-hotpot-${n}-${fnv1a32(question.id).toString(16).padStart(8, '0').slice(0, 6)}`,
          suite: 'hotpot',
          question: question.question,
          answer: question.answer,
          metadata: { family: 'hotpot', axes: { type: question.type, level }, type: question.type, level, supportingTitles: question.supportingTitles, hotpotId: question.id },
        };
      });
    },
    read: createHotpotReader(questions),
    // A model reading a HotpotQA question sees no structure to split; only the whole question is offered.
    decompose: (question, granularity) => {
      if (granularity !== 'whole' || !questionTexts.has(squash(question))) return undefined;
      return { subQuestions: [{ id: 'A', dependsOn: [], render: () => question }], finalId: 'A' };
    },
    corpus: () => documents,
  };
}

function squash(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
