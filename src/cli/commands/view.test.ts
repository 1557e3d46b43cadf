import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimEnvironment, loadScenario } from '../../sim/index.js';
import { openStore } from '../../store/index.js';
import { createRichEpisode } from '../../testing/episode-factory.js';
import { registerViewCommand, type ViewCommandIo } from './view.js';

let directory: string;
let db: string;
/** A document of the default scenario's knowledge base that the first episode's search returned. */
let document: { id: string; title: string };

/** Six episodes of a collection run that records its scenario as `orchrm collect --scenario` does: the whole object. */
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'orchrm-view-cli-'));
  db = join(directory, 'runs.db');
  const scenario = loadScenario('default');
  document = (await createSimEnvironment(scenario)).families.flatMap((family) => [...family.corpus()])[0]!;
  const store = openStore(db);
  const runId = store.createRun({ kind: 'collect', config: { scenario } }).id;
  for (let seed = 1; seed <= 6; seed++) {
    const episode = createRichEpisode({ seed, id: `ep-${seed}`, runId, sampleIndex: seed, withMessages: false, correct: seed % 2 === 0 });
    const search = episode.nodes[0]!;
    if (seed === 1 && search.artifacts?.kind === 'search') search.artifacts = { ...search.artifacts, steps: [{ query: 'who founded it', docIds: [document.id] }] };
    store.insertEpisode(episode);
  }
  store.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

function testIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const text = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (text.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (text.stderr += chunk.toString()));
  let shutDown: (reason: string) => void = () => undefined;
  const shutdown = new Promise<string>((resolve) => (shutDown = resolve));
  // The served command's first line, read as JSON (--json) once it is complete.
  const ready = new Promise<Record<string, unknown>>((resolve) => stdout.on('data', () => text.stdout.startsWith('{') && text.stdout.includes('\n') && resolve(JSON.parse(text.stdout.split('\n')[0]!) as Record<string, unknown>)));
  const io: ViewCommandIo = { stdout, stderr, untilShutdown: () => shutdown };
  return { io, text, shutDown, ready };
}

async function run(io: ViewCommandIo, args: string[]): Promise<void> {
  const program = new Command('orchrm').exitOverride();
  registerViewCommand(program, io);
  await program.parseAsync(args, { from: 'user' });
}

describe('orchrm view', () => {
  it('serves the database on 127.0.0.1 until shutdown', async () => {
    const { io, text, shutDown, ready } = testIo();
    const running = run(io, ['view', '--db', db, '--port', '0', '--json']);
    const { url, host } = (await ready) as { url: string; host: string };
    expect(host).toBe('127.0.0.1');
    const facets = (await (await fetch(`${url}api/facets`)).json()) as { tasks: number };
    expect(facets.tasks).toBe(5);
    const page = await fetch(url);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>orchrm view: runs.db</title>');
    shutDown('test over');
    await running;
    expect(process.exitCode).toBeUndefined();
    expect(text.stderr).toContain(`orchrm view: ${db} at ${url} (stop with Ctrl-C)`);
    expect(text.stderr).toContain('test over; closing');
  });

  it('writes one page with --out, and says what it holds', async () => {
    const { io, text } = testIo();
    const out = join(directory, 'page.html');
    await run(io, ['view', '--db', db, '--out', out, '--tasks', '2', '--json']);
    expect(JSON.parse(text.stdout)).toMatchObject({ path: out, tasks: 2, matching: 5, stoppedBy: 'max-tasks' });
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('This file holds the first 2 of 5 matching tasks in stored order (at most 2 tasks and 16 MB of data; texts over 4,000 characters are cut)');
    // The run recorded its scenario object: its knowledge base gives the searched document's text.
    expect(text.stderr).toContain("orchrm view: search documents from scenario default's knowledge base, as the collection runs in");
    expect(html).toContain(JSON.stringify(document.title).slice(1, -1).replace(/[<>&]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`));
    const again = testIo();
    await run(again.io, ['view', '--db', db, '--out', out, '--outcome', 'all-correct', '--force']);
    expect(process.exitCode).toBeUndefined();
    expect(again.text.stdout).toMatch(/^.*page\.html: \d of \d tasks \(every matching task\), 0\.\d MB; orchrm view --db .*runs\.db serves them all\n$/);
  });

  it('refuses an --out that is the database or exists, and filters without --out', async () => {
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const existing = join(directory, 'existing.html');
    writeFileSync(existing, 'keep me');
    await run(testIo().io, ['view', '--db', db, '--out', db]);
    await run(testIo().io, ['view', '--db', db, '--out', existing]);
    await run(testIo().io, ['view', '--db', db, '--family', 'arith']);
    await run(testIo().io, ['view', '--db', join(directory, 'missing.db')]);
    const written = errors.mock.calls.map(([chunk]) => String(chunk)).join('');
    expect(written).toContain('is the file --db reads');
    expect(written).toContain('the file exists; pass --force to replace it');
    expect(written).toContain('--family selects the tasks of a page written with --out');
    expect(written).toContain('no orchrm database at');
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
    expect(existsSync(join(directory, 'missing.db'))).toBe(false);
    expect(process.exitCode).toBe(2);
  });
});
