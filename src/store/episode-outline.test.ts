import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Episode } from '../core/episode.js';
import { createParseErrorEpisode, createRichEpisode } from '../testing/episode-factory.js';
import type { EpisodeOutline } from './episode-outline.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';

let directory: string;
let store: Store;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-outline-'));
  store = openStore(join(directory, 'store.db'));
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

/** What an outline keeps of an episode. */
function outlineOf(episode: Episode): EpisodeOutline {
  const { task, plan, finalAnswer, grade } = episode;
  return {
    id: episode.id,
    task: { id: task.id, question: task.question, ...(task.answer !== undefined && { answer: task.answer }) },
    orchestrator: episode.orchestrator,
    status: episode.status,
    planText: episode.planText,
    ...(plan !== undefined && { plan }),
    diagnostics: episode.diagnostics,
    nodes: episode.nodes.map(({ nodeId, agent, input, status, answer, artifacts }) => ({
      nodeId,
      agent,
      input,
      status,
      ...(answer !== undefined && { answer }),
      ...(artifacts !== undefined && { artifacts }),
    })),
    ...(finalAnswer !== undefined && { finalAnswer }),
    ...(grade !== undefined && { grade }),
    usage: { execution: episode.usage.execution },
  };
}

it('reads outlines in insertion order, filtered, with the task each episode ran on', () => {
  const rich = createRichEpisode({ seed: 4, runId: undefined });
  const broken = createParseErrorEpisode({ seed: 5 });
  for (const episode of [rich, broken]) store.insertEpisode(episode);
  // The task row changes after `rich` ran: its outline keeps the question it was asked.
  const changed = createRichEpisode({ seed: 9, sampleIndex: 1, task: { ...rich.task, question: 'Reworded?', answer: '7' } });
  store.insertEpisode(changed);
  expect([...store.iterateEpisodeOutlines()]).toStrictEqual([outlineOf(rich), outlineOf(broken), outlineOf(changed)]);
  expect([...store.iterateEpisodeOutlines({ status: 'parse_error' })]).toStrictEqual([outlineOf(broken)]);
});
