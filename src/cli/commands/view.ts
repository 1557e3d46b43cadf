import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/index.js';
import { type DocumentLookup, renderViewerFile, startViewerServer, ViewerData, type ViewerDocument } from '../../report/index.js';
import { loadRewardModel } from '../../rm/index.js';
import { openStore, type Store, TaskOutcomeSchema } from '../../store/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { guardOutputs } from '../output-guard.js';
import { runAction } from '../run-action.js';
import { PortSchema, untilSignal } from '../server-process.js';

/** Where `orchrm view` writes and when a served viewer stops; tests pass their own. */
export interface ViewCommandIo extends CommandStreams {
  /** Resolves with a reason when the server should close. @default the first SIGINT or SIGTERM */
  untilShutdown: () => Promise<string>;
}

const ViewFlagsSchema = z.object({
  db: z.string().min(1).default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to browse (opened read-only)' }),
  out: z.string().min(1).optional().meta({ placeholder: 'file', description: 'write one self-contained page holding the first tasks (see --tasks) instead of serving the whole database' }),
  model: z.string().min(1).optional().meta({ placeholder: 'file', description: 'reward model file: score every plan and show why (its largest feature contributions)' }),
  port: PortSchema.default(8700).meta({ description: 'port to serve on (0 picks a free one)' }),
  host: z.string().default('127.0.0.1').meta({ placeholder: 'address', description: 'address to bind; anything but loopback shows the database to the network' }),
  tasks: z.number().int().min(1).max(100_000).default(100).meta({ description: 'with --out: most tasks the page holds' }),
  maxMb: z.number().positive().max(1024).default(16).meta({ placeholder: 'MB', description: 'with --out: most data the page holds (tasks stop being added before it)' }),
  family: z.string().min(1).optional().meta({ placeholder: 'name', description: 'with --out: only tasks of this family' }),
  split: z.string().min(1).optional().meta({ placeholder: 'name', description: 'with --out: only tasks of this split (train, validation, test)' }),
  outcome: TaskOutcomeSchema.optional().meta({ placeholder: 'outcome', description: 'with --out: only tasks whose plans were all-correct, some-correct, none-correct or ungraded' }),
  search: z.string().min(1).optional().meta({ placeholder: 'text', description: 'with --out: only tasks whose question or id contains this text' }),
  corpus: z.string().min(1).optional().meta({ placeholder: 'file', description: 'JSONL corpus ({"id", "title", "text"}) the search blocks read, to show the documents they retrieved' }),
  scenario: z.string().min(1).optional().meta({
    placeholder: 'name',
    description: "simulator scenario whose knowledge base search blocks read (default: the one the database's collection runs name, when it is a built-in one)",
  }),
  force: z.boolean().default(false).meta({ description: 'with --out: replace the file if it exists' }),
  json: z.boolean().default(false).meta({ description: 'print {"url", ...} (served) or {"path", "tasks", ...} (--out) as JSON on stdout' }),
});
type ViewFlags = z.output<typeof ViewFlagsSchema>;
const viewFlags = optionsFromSchema(ViewFlagsSchema);

/**
 * Adds `orchrm view --db <file> [--out page.html] [--model M]`: the episode viewer. Served (the
 * default) on 127.0.0.1, it reads the database a page at a time, so any size opens at once; with
 * `--out` it writes one page holding the first tasks.
 */
export function registerViewCommand(program: Command, io: Partial<ViewCommandIo> = {}): void {
  const resolvedIo: ViewCommandIo = { ...processStreams, untilShutdown: untilSignal, ...io };
  addOptions(program.command('view').description(commandSummary('view')), viewFlags)
    .addHelpText(
      'after',
      '\nExamples:\n  orchrm view --db orchrm-demo/demo.db --model orchrm-demo/rm.safetensors      # then open the URL it prints\n' +
        '  orchrm view --db runs.db --out runs.html --tasks 50 --outcome some-correct\n' +
        '\nThe page loads nothing from the network; every text from the database is shown as text.',
    )
    .action(runAction((raw: Record<string, unknown>) => view(resolvedIo, viewFlags.parse(raw))));
}

async function view(io: ViewCommandIo, flags: ViewFlags): Promise<void> {
  if (flags.out !== undefined) {
    guardOutputs({ inputs: [{ flag: '--db', path: flags.db }, { flag: '--model', path: flags.model }, { flag: '--corpus', path: flags.corpus }], outputs: [{ flag: '--out', path: flags.out }], force: flags.force });
  } else {
    const fileOnly = (['family', 'split', 'outcome', 'search'] as const).filter((flag) => flags[flag] !== undefined);
    if (fileOnly.length > 0) throw new UserError(`--${fileOnly[0]} selects the tasks of a page written with --out; the served viewer has the same filters on the page`);
  }
  const store = openStore(flags.db, { readonly: true });
  const model = flags.model === undefined ? undefined : await loadRewardModel(flags.model);
  try {
    const documents = await documentLookup(store, flags, io);
    if (flags.out !== undefined) {
      const data = new ViewerData({ store, ...(model && { model }), ...(documents && { documents }), maxTextChars: 4000 });
      const rendered = await renderViewerFile({
        data,
        database: flags.db,
        maxTasks: flags.tasks,
        maxBytes: Math.round(flags.maxMb * 1024 * 1024),
        query: { ...(flags.family && { family: flags.family }), ...(flags.split && { split: flags.split }), ...(flags.outcome && { outcome: flags.outcome }), ...(flags.search && { search: flags.search }) },
      });
      await writeFile(flags.out, rendered.html);
      const summary = { path: flags.out, tasks: rendered.included, matching: rendered.matching, stoppedBy: rendered.stoppedBy, bytes: Buffer.byteLength(rendered.html) };
      const why = { complete: 'every matching task', 'max-tasks': `--tasks ${flags.tasks}`, 'max-bytes': `--max-mb ${flags.maxMb}` }[rendered.stoppedBy];
      io.stdout.write(
        flags.json
          ? `${JSON.stringify(summary)}\n`
          : `${flags.out}: ${rendered.included.toLocaleString('en-US')} of ${rendered.matching.toLocaleString('en-US')} tasks (${why}), ${(summary.bytes / 1024 / 1024).toFixed(1)} MB; orchrm view --db ${flags.db} serves them all\n`,
      );
      return;
    }
    const data = new ViewerData({ store, ...(model && { model }), ...(documents && { documents }) });
    const server = await startViewerServer({ data, database: basename(flags.db), host: flags.host, port: flags.port, portName: '--port' });
    if (flags.host !== '127.0.0.1' && flags.host !== 'localhost' && flags.host !== '::1') {
      io.stderr.write(`orchrm view: warning: --host ${flags.host} is not loopback; anyone who can reach it can read ${flags.db}\n`);
    }
    io.stderr.write(`orchrm view: ${flags.db} at ${server.url}/ (stop with Ctrl-C)\n`);
    io.stdout.write(flags.json ? `${JSON.stringify({ url: `${server.url}/`, host: server.host, port: server.port, database: flags.db })}\n` : `listening on ${server.url}/ (open it in a browser)\n`);
    const reason = await io.untilShutdown();
    io.stderr.write(`orchrm view: ${reason}; closing\n`);
    await server.close();
  } finally {
    model?.close();
    store.close();
  }
}

/**
 * Where the documents of search steps come from: a corpus file, or the knowledge base of a
 * simulator scenario (given, or the built-in one the database's collection runs name). The
 * database keeps document ids only. Loaded on the first node that needs it, so the viewer opens
 * without paying for it.
 */
async function documentLookup(store: Store, flags: ViewFlags, io: ViewCommandIo): Promise<DocumentLookup | undefined> {
  let load: () => Promise<readonly ViewerDocument[]>;
  if (flags.corpus !== undefined) {
    const { loadCorpus } = await import('../../tasks/index.js');
    const path = flags.corpus;
    if (!existsSync(path)) throw new UserError(`--corpus ${path}: no such file; give the JSONL corpus the search blocks read`);
    load = () => loadCorpus(path);
  } else {
    // The simulator is loaded on first use too: only the scenario's name is read now.
    const recorded = flags.scenario ?? recordedScenario(store);
    if (recorded === undefined) return undefined;
    const name = typeof recorded === 'string' ? recorded : String(recorded.name ?? 'recorded');
    if (flags.scenario === undefined) io.stderr.write(`orchrm view: search documents from scenario ${name}'s knowledge base, as the collection runs in ${flags.db} record it (--scenario or --corpus to choose)\n`);
    load = async () => {
      const { createSimEnvironment, loadScenario, ScenarioSchema } = await import('../../sim/index.js');
      // A recorded scenario object is the scenario itself (a file's, or a built-in one with its seed); a name is looked up.
      const scenario = typeof recorded === 'string' ? loadScenario(recorded) : ScenarioSchema.parse(recorded);
      return (await createSimEnvironment(scenario)).families.flatMap((family) => [...family.corpus()]);
    };
  }
  let byId: Promise<Map<string, ViewerDocument>> | undefined;
  return async (ids) => {
    byId ??= load().then((documents) => new Map(documents.map((document) => [document.id, document])));
    const known = await byId;
    return new Map(ids.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])));
  };
}

/**
 * The scenario every collection run of the database records, if they agree on one: a name (as
 * the demo records it) or the whole scenario object (as `orchrm collect --scenario` records it).
 */
function recordedScenario(store: Store): string | Record<string, unknown> | undefined {
  const rows = store.db.prepare<[], { scenario: string | null }>("SELECT DISTINCT json_extract(config, '$.scenario') AS scenario FROM runs WHERE kind = 'collect' AND json_valid(config)").all();
  if (rows.length !== 1) return undefined;
  const { scenario } = rows[0]!;
  if (scenario === null || typeof scenario !== 'string') return undefined;
  // json_extract gives an object as its JSON text.
  if (!scenario.startsWith('{')) return scenario;
  try {
    const parsed: unknown = JSON.parse(scenario);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
