import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pair } from '../core/pair.js';
import { canonicalPlanText } from '../plan/index.js';
import type { Store } from '../store/index.js';
import { exportPairs, type ExportPairsOptions } from './export-pairs.js';
import { readPairExportLayout } from './pair-export-layout.js';
import { exportStore } from './test-fixtures/export-store.js';
import { trainingFlags } from './training-flags.js';

let directory: string;
let store: Store;
let pairs: Pair[];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-export-'));
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

describe('exportPairs', () => {
  it('writes margin on every row when any pair has one (0 for the rest), or on none', async () => {
    const withMargins = await exported('trl.jsonl', { format: 'trl' });
    expect(withMargins.rows.map((row) => row.margin)).toEqual(pairs.map((pair) => pair.margin ?? 0));
    expect(withMargins.rows.filter((row) => row.margin !== 0)).toHaveLength(2);
    const omitted = await exported('trl-omit.jsonl', { format: 'trl', margins: 'omit' });
    expect(omitted.rows.every((row) => !('margin' in row))).toBe(true);
    const noMargins = await exported('trl-outcome.jsonl', { format: 'trl', filter: { source: 'outcome' } });
    expect(noMargins.rows.every((row) => !('margin' in row))).toBe(true);
    expect(noMargins.layout.keys.margin).toBeNull();
  });

  it('writes TRL and OpenRLHF messages rows: the task as a user message, each plan as an assistant message', async () => {
    const [pair] = pairs;
    const trl = await exported('trl-messages.jsonl', { format: 'trl', form: 'messages', planText: 'canonical' });
    expect(trl.rows[0]).toEqual({
      prompt: [{ role: 'user', content: pair!.question }],
      chosen: [{ role: 'assistant', content: canonicalPlanText(pair!.winner.planText) }],
      rejected: [{ role: 'assistant', content: canonicalPlanText(pair!.loser.planText) }],
      margin: 0,
    });
    const openrlhf = await exported('openrlhf-messages.jsonl', { format: 'openrlhf', form: 'messages', openRlhfKeys: { prompt: 'prompt', chosen: 'good', rejected: 'bad' } });
    expect(Object.keys(openrlhf.rows[0]!)).toEqual(['good', 'bad', 'margin']);
    expect(openrlhf.rows[0]!.good).toEqual([{ role: 'user', content: pair!.question }, { role: 'assistant', content: pair!.winner.planText }]);
    expect(openrlhf.layout.keys).toEqual({ prompt: null, chosen: 'good', rejected: 'bad', margin: 'margin' });
  });

  it('keeps the published source names and writes the extension names for process and efficiency', async () => {
    const published = await exported('published.jsonl', { format: 'orchrm' });
    expect(published.layout.sources).toEqual({ 'correct-over-incorrect': 2, 'specialized-over-base': 2, process: 2, efficiency: 2 });
    expect(published.rows.every((row) => !('margin' in row))).toBe(true);
    await expect(exportPairs(store, join(directory, 'x.jsonl'), { format: 'orchrm', form: 'messages' })).rejects.toThrow(/the orchrm format is text only/);
  });

  it('writes the layout file beside the export, read back as written; none for a stream unless named', async () => {
    const trl = await exported('trl-eos.jsonl', { format: 'trl', eosToken: '<|endoftext|>' });
    expect(trl.layoutPath).toBe(`${trl.file}.orchrm-layout`);
    expect(readPairExportLayout(trl.layoutPath!)).toEqual(trl.layout);
    expect(trl.layout).toMatchObject({
      format: 'trl',
      form: 'text',
      planText: 'raw',
      rows: 8,
      scoring: { input: 'text', stripTrailingNewlines: false, eos: 'append', eosToken: '<|endoftext|>', addSpecialTokens: true },
    });
    const stream = new PassThrough();
    stream.resume();
    expect((await exportPairs(store, stream, { format: 'trl' })).layoutPath).toBeUndefined();
    const named = join(directory, 'stdout.layout');
    expect((await exportPairs(store, new PassThrough().resume(), { format: 'openrlhf', layoutPath: named })).layoutPath).toBe(named);
    expect(readPairExportLayout(named).scoring).toMatchObject({ stripTrailingNewlines: true, eos: 'append-after-space', addSpecialTokens: false });
  });

  it('names the OpenRLHF flags that read each export as written, for 0.10.2+ and 0.10.1-', async () => {
    const text = (await exported('flags.jsonl', { format: 'openrlhf', openRlhfKeys: { prompt: 'task', chosen: 'chosen', rejected: 'rejected' } })).layout;
    expect(trainingFlags(text, 'train.jsonl')).toEqual([
      'OpenRLHF >= 0.10.2: --data.dataset train.jsonl --data.prompt_key task --data.chosen_key chosen --data.rejected_key rejected --model.margin_loss_enable',
      'OpenRLHF <= 0.10.1: --dataset train.jsonl --prompt_key task --chosen_key chosen --rejected_key rejected --margin_loss',
    ]);
    const messages = (await exported('flags-messages.jsonl', { format: 'openrlhf', form: 'messages', margins: 'omit' })).layout;
    expect(trainingFlags(messages, 'm.jsonl')[0]).toBe(
      'OpenRLHF >= 0.10.2: --data.dataset m.jsonl --data.apply_chat_template --data.chosen_key chosen --data.rejected_key rejected (leave prompt_key unset: the task is inside the conversation)',
    );
  });
});
