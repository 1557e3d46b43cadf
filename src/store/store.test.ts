import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Episode } from '../core/episode.js';
import { createParseErrorEpisode, createRichEpisode } from '../testing/episode-factory.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';
import { TRUNCATION_MARKER } from './truncate-text.js';

let directory: string;
let stores: Store[];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-store-'));
  stores = [];
});
afterEach(() => {
  for (const store of stores) store.close();
  rmSync(directory, { recursive: true, force: true });
});

function open(options: Parameters<typeof openStore>[1] = {}, name = 'store.db'): Store {
  const store = openStore(join(directory, name), options);
  stores.push(store);
  return store;
}

function withoutMessages(episode: Episode): Episode {
  const strip = <T extends { messages?: unknown }>({ messages: _messages, ...call }: T) => call;
  return {
    ...episode,
    ...(episode.orchestratorCall && { orchestratorCall: strip(episode.orchestratorCall) }),
    nodes: episode.nodes.map((node) => ({ ...node, calls: node.calls.map(strip) })),
  };
}

describe('episode round trip', () => {
  it('reads back rich episodes exactly, prompts included when kept', () => {
    const store = open({ keepPrompts: true });
    const episodes = [1, 2, 3, 4, 5, 6].map((seed) => createRichEpisode({ seed, correct: seed % 2 === 0 }));
    episodes.push(createParseErrorEpisode({ seed: 9 }));
    for (const episode of episodes) store.insertEpisode(episode);
    for (const episode of episodes) expect(store.getEpisode(episode.id)).toStrictEqual(episode);
    expect(store.getEpisode('missing')).toBeUndefined();
  });

  it('covers every artifact kind, failed and skipped nodes, and an episode with no plan', () => {
    const rich = createRichEpisode();
    const kinds = rich.nodes.map((node) => node.artifacts?.kind);
    expect(kinds).toEqual(['search', 'cot', 'sc', 'reflexion', 'debate', 'verifier', undefined]);
    expect(rich.nodes.map((node) => node.status)).toContain('runtime_error');
    const parseError = createParseErrorEpisode();
    expect(parseError.plan).toBeUndefined();
    expect(parseError.nodes).toEqual([]);
  });

  it('drops prompt messages unless keepPrompts, keeping everything else', () => {
    const store = open();
    const episode = createRichEpisode({ seed: 3 });
    store.insertEpisode(episode);
    const stored = store.getEpisode(episode.id);
    expect(stored).toStrictEqual(withoutMessages(episode));
    const messageCount = store.db.prepare('SELECT count(*) AS n FROM llm_calls WHERE messages IS NOT NULL').get() as { n: number };
    expect(messageCount.n).toBe(0);
  });

  it('truncates long texts with a marker instead of silently', () => {
    const store = open({ keepPrompts: true, maxStoredTextChars: 50 });
    const episode = createRichEpisode({ seed: 2 });
    const longResponse = 'x'.repeat(120);
    const first = episode.nodes[1]?.calls[0];
    if (first === undefined) throw new Error('factory changed: node B has no call');
    first.response = longResponse;
    store.insertEpisode(episode);
    const storedCall = store.getEpisode(episode.id)?.nodes[1]?.calls[0];
    expect(storedCall?.response).toBe(`${'x'.repeat(50)}\n${TRUNCATION_MARKER}, kept 50 of 120 chars]`);
    expect(storedCall?.messages?.[0]?.content).toBe('You are a careful solver.');
  });

  it('keeps the task each episode ran on when the shared task row changes', () => {
    const store = open();
    const first = createRichEpisode({ seed: 5 });
    const changedTask = { ...first.task, answer: 'changed', metadata: { note: 'relabelled' } };
    const second = createRichEpisode({ seed: 10, task: changedTask, withMessages: false });
    store.insertEpisode(withoutMessages(first));
    store.insertEpisode(second);
    store.upsertTasks([{ ...first.task, question: 'rewritten question?' }]);
    expect(store.getEpisode(first.id)?.task).toStrictEqual(first.task);
    expect(store.getEpisode(second.id)?.task).toStrictEqual(changedTask);
  });
});

describe('queries and resume', () => {
  it('lists, counts and iterates with filters, and answers the resume key', () => {
    const store = open();
    const run = store.createRun({ kind: 'collect', config: { plansPerTask: 2 }, seed: 7, codeVersion: '0.1.0' });
    const inserted: Episode[] = [];
    for (let seed = 0; seed < 600; seed++) {
      const episode = createRichEpisode({ seed, runId: run.id, sampleIndex: seed, withMessages: false, correct: seed % 3 === 0 });
      store.insertEpisode(episode);
      inserted.push(episode);
    }
    store.insertEpisode(createParseErrorEpisode({ seed: 1000, withMessages: false }));
    expect(store.countEpisodes()).toBe(601);
    expect(store.countEpisodes({ runId: run.id })).toBe(600);
    expect(store.countEpisodes({ status: 'parse_error' })).toBe(1);
    expect(store.countEpisodes({ taskId: 'task-3' })).toBe(120);

    const page = store.listEpisodes({ runId: run.id, limit: 3, offset: 1 });
    expect(page.map((summary) => summary.id)).toEqual(inserted.slice(1, 4).map((episode) => episode.id));
    expect(page[0]).toMatchObject({ taskId: 'task-1', sampleIndex: 1, correct: false, status: 'ok', runId: run.id });

    // Iteration crosses several pages and allows writes between items.
    const seen: string[] = [];
    for (const episode of store.iterateEpisodes({ runId: run.id })) {
      seen.push(episode.id);
      if (seen.length === 300) store.finishRun(run.id, 'completed');
    }
    expect(seen).toEqual(inserted.map((episode) => episode.id));
    const withoutCalls = store.iterateEpisodes({ taskId: 'task-2' }, { withCalls: false }).next().value;
    expect(withoutCalls?.nodes.every((node) => node.calls.length === 0)).toBe(true);
    expect(withoutCalls?.orchestratorCall).toBeUndefined();

    const key = { runId: run.id, taskId: 'task-4', sampleIndex: 4, orchestrator: 'sim', checkpoint: 'step-0' };
    expect(store.hasEpisode(key)).toBe(true);
    expect(store.hasEpisode({ ...key, checkpoint: undefined })).toBe(false);
    expect(store.hasEpisode({ ...key, sampleIndex: 5 })).toBe(false);
    expect(store.getRun(run.id)).toMatchObject({ status: 'completed', seed: 7, codeVersion: '0.1.0', config: { plansPerTask: 2 } });
  });

  it('refuses a second episode with the same id or resume key, and unknown runs', () => {
    const store = open();
    const run = store.createRun({ kind: 'collect', config: {} });
    const episode = createRichEpisode({ seed: 1, runId: run.id, withMessages: false });
    store.insertEpisode(episode);
    expect(() => store.insertEpisode(episode)).toThrow(/already stored/);
    expect(() => store.insertEpisode({ ...episode, id: 'other' })).toThrow(/already has sample 0 of task task-1 from sim checkpoint step-0/);
    expect(() => store.insertEpisode({ ...episode, id: 'third', runId: 'run_missing' })).toThrow(/run run_missing.*createRun/);
    expect(store.countEpisodes()).toBe(1);
    expect(store.db.prepare('SELECT count(*) AS n FROM node_traces').get()).toEqual({ n: episode.nodes.length });
  });

  it('validates episodes before writing and names the field', () => {
    const store = open();
    const episode = createRichEpisode();
    const broken = { ...episode, nodes: [{ ...episode.nodes[0], status: 'exploded' }] } as unknown as Episode;
    expect(() => store.insertEpisode(broken)).toThrow(/nodes\[0\]\.status/);
    expect(store.countEpisodes()).toBe(0);
  });
});
