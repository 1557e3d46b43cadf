import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pair } from '../../core/pair.js';
import { pythonWith, runPython } from '../../core/test-fixtures/python-harness.js';
import { exportPairs, type ExportPairsOptions, type PairExportLayout } from '../../pairs/index.js';
import { exportStore } from '../../pairs/test-fixtures/export-store.js';
import type { Store } from '../../store/index.js';
import { fixtureTemplate, fixtureTemplatePath } from '../../serve/test-fixtures/render-chat.js';
import { createOpenRlhfRewardModel } from './openrlhf-reward-model.js';
import { scoringInput } from './scoring-input.js';

/**
 * The link between an export and the remote clients: each export is read the way TRL and
 * OpenRLHF read it (a Python harness following their dataset code), and the text each row
 * trains on must be the text the vLLM classify client sends for the same (task, plan) under the
 * export's layout file.
 */
let directory: string;
let store: Store;
let pairs: Pair[];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-engines-'));
  store = exportStore(directory).store;
  pairs = [...store.iteratePairs()];
});
afterAll(() => {
  store?.close();
  rmSync(directory, { recursive: true, force: true });
});

const rowsOf = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

async function exported(name: string, options: ExportPairsOptions) {
  const file = join(directory, name);
  const result = await exportPairs(store, file, options);
  return { file, rows: rowsOf(file), ...result };
}

const python = pythonWith(['numpy']);
const HARNESS = new URL('../../pairs/test-fixtures/preference_dataset_loaders.py', import.meta.url).pathname;
const EOS = '<|endoftext|>';
/** The trained model's chat template in the messages jobs: Qwen2.5-Instruct's, which adds a default system prompt. */
const QWEN = 'qwen2.5-instruct';

interface Loaded {
  chosen: string[] | null;
  rejected: string[] | null;
  margins: number[] | null;
  error: string | null;
}

describe.skipIf(!python.available)(`TRL's and OpenRLHF's dataset loading over every export ${python.reason}`, () => {
  const exports: Record<string, { file: string; layout: PairExportLayout }> = {};
  let results: Record<string, Loaded>;

  beforeAll(async () => {
    for (const [name, options] of [
      ['trl-text', { format: 'trl' }],
      ['trl-messages', { format: 'trl', form: 'messages' }],
      ['openrlhf-text', { format: 'openrlhf' }],
      ['openrlhf-messages', { format: 'openrlhf', form: 'messages' }],
      ['orchrm', { format: 'orchrm' }],
    ] as const) {
      const { file, layout } = await exported(`${name}.jsonl`, { ...options, eosToken: EOS });
      exports[name] = { file, layout };
    }
    // What the export wrote before issue 15: margin only on the pairs that have one.
    const partial = join(directory, 'trl-partial-margins.jsonl');
    writeFileSync(partial, rowsOf(exports['trl-text']!.file).map((row) => JSON.stringify(row.margin === 0 ? { ...row, margin: undefined } : row)).join('\n'));
    const jobs: Record<string, object> = {
      'trl text': { file: exports['trl-text']!.file, engine: 'trl' },
      'trl text, margin on some rows': { file: partial, engine: 'trl' },
      'trl messages': { file: exports['trl-messages']!.file, engine: 'trl', chat_template_config: fixtureTemplatePath(QWEN) },
      'trl orchrm': { file: exports.orchrm!.file, engine: 'trl' },
      'openrlhf text, default flags': { file: exports['openrlhf-text']!.file, engine: 'openrlhf' },
      'openrlhf text, --prompt_key prompt': { file: exports['openrlhf-text']!.file, engine: 'openrlhf', prompt_key: 'prompt' },
      'openrlhf text, --apply_chat_template': { file: exports['openrlhf-text']!.file, engine: 'openrlhf', prompt_key: 'prompt', apply_chat_template: true },
      'openrlhf messages, --apply_chat_template': { file: exports['openrlhf-messages']!.file, engine: 'openrlhf', apply_chat_template: true, chat_template_config: fixtureTemplatePath(QWEN) },
      'openrlhf messages, --apply_chat_template --prompt_key prompt': { file: exports['openrlhf-messages']!.file, engine: 'openrlhf', apply_chat_template: true, prompt_key: 'prompt' },
      'openrlhf text, margin on some rows': { file: partial, engine: 'openrlhf', prompt_key: 'prompt' },
      'openrlhf orchrm, --prompt_key input': { file: exports.orchrm!.file, engine: 'openrlhf', prompt_key: 'input' },
    };
    const file = join(directory, 'jobs.json');
    writeFileSync(file, JSON.stringify(Object.values(jobs).map((job) => ({ eos_token: EOS, ...job }))));
    const run = await runPython(HARNESS, [file]);
    if (run.code !== 0) throw new Error(`harness failed: ${run.stderr}`);
    const loaded = JSON.parse(run.stdout) as Loaded[];
    results = Object.fromEntries(Object.keys(jobs).map((name, index) => [name, loaded[index]!]));
  }, 60_000);

  /** What the vLLM classify client sends for every pair under an export's layout, as text. */
  const clientTexts = (name: string, side: 'winner' | 'loser', renderHere = false) =>
    pairs.map((pair) => {
      const input = scoringInput(exports[name]!.layout.scoring!, pair.question, pair[side].planText, renderHere ? { chatTemplate: fixtureTemplate(QWEN) } : {});
      // A messages input is rendered by the server with the model's own template, as vLLM does.
      return input.kind === 'text' ? input.text : fixtureTemplate(QWEN).render(input.messages);
    });

  it('TRL text: every row trains on prompt + plan + EOS, margins stack, and the classify client sends exactly that text', () => {
    const trl = results['trl text']!;
    expect(trl.error).toBeNull();
    expect(trl.chosen).toEqual(clientTexts('trl-text', 'winner'));
    expect(trl.rejected).toEqual(clientTexts('trl-text', 'loser'));
    expect(trl.margins).toEqual(pairs.map((pair) => pair.margin ?? 0));
  });

  it('TRL text with margin on some rows only (the old export): the collator fails on None', () => {
    expect(results['trl text, margin on some rows']!.error).toBe('TypeError: must be real number, not NoneType');
  });

  it('TRL messages: the chat template of [user task, assistant plan], which the client sends as messages', () => {
    const trl = results['trl messages']!;
    expect(trl.error).toBeNull();
    expect(trl.chosen).toEqual(clientTexts('trl-messages', 'winner'));
    expect(trl.chosen![0]).toContain(pairs[0]!.question);
  });

  it('OpenRLHF text: with default flags the task is dropped; with --prompt_key prompt it is there and matches the client', () => {
    const dropped = results['openrlhf text, default flags']!;
    expect(dropped.chosen!.some((text, index) => text.includes(pairs[index]!.question))).toBe(false);
    const kept = results['openrlhf text, --prompt_key prompt']!;
    expect(kept.chosen).toEqual(clientTexts('openrlhf-text', 'winner'));
    expect(kept.rejected).toEqual(clientTexts('openrlhf-text', 'loser'));
    expect(kept.margins).toEqual(pairs.map((pair) => pair.margin ?? 0));
  });

  it('OpenRLHF text rows with --apply_chat_template fail as the issue says; messages rows work with it and match the client', () => {
    expect(results['openrlhf text, --apply_chat_template']!.error).toMatch(/^TypeError: string indices must be integers/);
    const messages = results['openrlhf messages, --apply_chat_template']!;
    expect(messages.error).toBeNull();
    expect(messages.chosen).toEqual(clientTexts('openrlhf-messages', 'winner', true));
    expect(messages.chosen!.every((text, index) => text.includes(pairs[index]!.question))).toBe(true);
    expect(results['openrlhf messages, --apply_chat_template --prompt_key prompt']!.error).toBe("KeyError: 'prompt'");
  });

  it('OpenRLHF messages rows of a Qwen2.5 model: the hand-written ChatML layout matched none of them, the model\'s tokenizer_config.json all (issue 24)', async () => {
    const trained = results['openrlhf messages, --apply_chat_template']!.chosen!;
    // What `chatTemplate: 'chatml'` rendered before: no default system prompt.
    const handWritten = pairs.map((pair) => `<|im_start|>user\n${pair.question}<|im_end|>\n<|im_start|>assistant\n${pair.winner.planText}<|im_end|>`.replace(/\n+$/, '') + ` ${EOS}`);
    const real = clientTexts('openrlhf-messages', 'winner', true);
    const matching = (texts: string[]) => texts.filter((text, index) => text === trained[index]).length;
    expect({ pairs: pairs.length, handWritten: matching(handWritten), real: matching(real) }).toEqual({ pairs: pairs.length, handWritten: 0, real: pairs.length });
    expect(() => createOpenRlhfRewardModel({ url: 'http://127.0.0.1:1/get_reward', layout: exports['openrlhf-messages']!.layout, chatTemplate: 'chatml' })).toThrow(
      /chatTemplate "chatml" named a hand-written layout.*give the path of the trained model's tokenizer_config\.json/,
    );
  });

  it('OpenRLHF reads a missing margin as 0, so old partial files trained there', () => {
    expect(results['openrlhf text, margin on some rows']!.margins).toEqual(pairs.map((pair) => pair.margin ?? 0));
  });

  it('the orchrm format: TRL drops the task (no prompt key); OpenRLHF reads it with --prompt_key input', () => {
    expect(results['trl orchrm']!.chosen!.some((text, index) => text.includes(pairs[index]!.question))).toBe(false);
    expect(results['openrlhf orchrm, --prompt_key input']!.chosen!.every((text, index) => text.includes(pairs[index]!.question))).toBe(true);
  });
});
