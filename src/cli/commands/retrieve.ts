import type { Command } from 'commander';
import { z } from 'zod';
import { createBm25Retriever, loadCorpus } from '../../tasks/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

const RetrieveFlagsSchema = z.object({
  corpus: z.string().meta({ placeholder: 'file.jsonl', description: 'corpus, one {"id", "title", "text"} per line' }),
  query: z.string().meta({ placeholder: 'text', description: 'the query' }),
  k: z.number().int().min(1).default(5).meta({ description: 'documents to return' }),
  json: z.boolean().default(false).meta({ description: 'print [{"id", "title", "text", "score"}] as JSON' }),
});
const retrieveFlags = optionsFromSchema(RetrieveFlagsSchema);

/** Characters of each document's text shown in the text output. */
const SNIPPET_CHARS = 200;

/**
 * Adds `orchrm retrieve --corpus <file> --query <q> [--k 5] [--json]`: BM25 over a corpus
 * (`{"id", "title", "text"}` per line), the same retriever search blocks use in `orchrm collect`.
 */
export function registerRetrieveCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('retrieve').description(commandSummary('retrieve')), retrieveFlags)
    .addHelpText('after', ['', 'Example:', "  orchrm retrieve --corpus hotpotqa-corpus.jsonl --query 'VIVA Media new acronym' --k 10"].join('\n'))
    .action(
      runAction(async (raw: Record<string, unknown>) => {
        const flags = retrieveFlags.parse(raw);
        const documents = await loadCorpus(flags.corpus);
        streams.stderr.write(`indexing ${documents.length} documents\n`);
        const results = await createBm25Retriever(documents).search(flags.query, { topK: flags.k });
        if (flags.json) {
          streams.stdout.write(`${JSON.stringify(results)}\n`);
          return;
        }
        if (results.length === 0) {
          streams.stdout.write('no document shares a term with the query\n');
          return;
        }
        const lines = results.map((result, index) => {
          const snippet = result.text.length > SNIPPET_CHARS ? `${result.text.slice(0, SNIPPET_CHARS)}...` : result.text;
          return `${index + 1}. ${result.title} [${result.id}] score ${result.score.toFixed(3)}\n   ${snippet.replace(/\s+/g, ' ')}`;
        });
        streams.stdout.write(`${lines.join('\n')}\n`);
      }),
    );
}
