import type { Command } from 'commander';
import { createBm25Retriever, loadCorpus } from '../../tasks/index.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { parseIntegerOption } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { commandSummary } from '../command-catalog.js';

interface RetrieveFlags {
  corpus: string;
  query: string;
  k: number;
  json: boolean;
}

/** Characters of each document's text shown in the text output. */
const SNIPPET_CHARS = 200;

/**
 * Adds `orchrm retrieve --corpus <file> --query <q> [--k 5] [--json]`: BM25 over a corpus
 * (`{"id", "title", "text"}` per line), the same retriever search blocks use in `orchrm collect`.
 */
export function registerRetrieveCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('retrieve')
    .description(commandSummary('retrieve'))
    .requiredOption('--corpus <file.jsonl>', 'corpus, one {"id", "title", "text"} per line')
    .requiredOption('--query <text>', 'the query')
    .option('--k <n>', 'documents to return', parseIntegerOption('--k', 1), 5)
    .option('--json', 'print [{"id", "title", "text", "score"}] as JSON', false)
    .addHelpText('after', ['', 'Example:', "  orchrm retrieve --corpus hotpotqa-corpus.jsonl --query 'VIVA Media new acronym' --k 10"].join('\n'))
    .action(
      runAction(async (flags: RetrieveFlags) => {
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
