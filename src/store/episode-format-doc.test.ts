import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { EpisodeSchema, NodeTraceSchema } from '../core/episode.js';
import { LlmCallRecordSchema } from '../core/llm-call.js';
import { DiagnosticCodeSchema, PlanSchema } from '../core/plan.js';
import { TaskSchema } from '../core/task.js';
import { importEpisodesJsonl } from './import-episodes-jsonl.js';
import { openStore } from './open-store.js';

const documentPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'episode-format.md');
const document = readFileSync(documentPath, 'utf8');

function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`json\\n(.*)\\n\`\`\``).exec(document);
  if (match?.[1] === undefined) throw new Error(`docs/episode-format.md has no "${name}" example`);
  return match[1];
}

it('documents every field of every record', () => {
  const shapes = [EpisodeSchema, TaskSchema, NodeTraceSchema, LlmCallRecordSchema, PlanSchema].map((schema) => Object.keys(schema.shape));
  for (const key of shapes.flat()) expect(document, key).toContain(`| \`${key}\` |`);
  for (const code of DiagnosticCodeSchema.options) expect(document, code).toContain(`\`${code}\``);
});

it('gives example lines that validate and import exactly', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'orchrm-doc-'));
  try {
    const lines = [example('full'), example('minimal')];
    const episodes = lines.map((line) => EpisodeSchema.parse(JSON.parse(line)));
    const file = join(directory, 'examples.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const store = openStore(join(directory, 'doc.db'), { keepPrompts: true });
    expect(await importEpisodesJsonl(store, file)).toEqual({ imported: 2, skipped: 0 });
    for (const episode of episodes) expect(store.getEpisode(episode.id)).toStrictEqual(episode);
    store.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
