import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/index.js';
import { formatEpisodeTrace, openStore, type Store } from '../../store/index.js';
import { addOptions, optionsFromSchema } from '../options-from-schema.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';
import { commandSummary } from '../command-catalog.js';

const InspectFlagsSchema = z.object({
  db: z.string().default('orchrm.db').meta({ placeholder: 'path', description: 'SQLite store to read' }),
  json: z.boolean().default(false).meta({ description: 'print the stored episode as JSON' }),
  full: z.boolean().default(false).meta({ description: 'print prompts (when kept), responses and outputs in full' }),
});
const inspectFlags = optionsFromSchema(InspectFlagsSchema);

/**
 * Adds `orchrm inspect [episode-id] --db <path> [--json] [--full]`: a readable trace of one
 * episode (plan, every node with its calls and artifacts, answer, grade, tokens by role), or the
 * stored Episode as JSON; without an id, the episode stored last.
 */
export function registerInspectCommand(program: Command, streams: CommandStreams = processStreams): void {
  addOptions(program.command('inspect').argument('[episode-id]', 'id of a stored episode (default: the one stored last)').description(commandSummary('inspect')), inspectFlags)
    .addHelpText('after', '\nExamples:\n  orchrm inspect --db runs.db\n  orchrm inspect ep_3f2a9c0d11e4b6a7 --db runs.db --full')
    .action(
      runAction((requestedId: string | undefined, raw: Record<string, unknown>) => {
        const flags = inspectFlags.parse(raw);
        const store = openStore(flags.db, { readonly: true });
        try {
          const episodeId = requestedId ?? lastEpisodeId(store, flags.db, streams);
          const episode = store.getEpisode(episodeId);
          if (episode === undefined) {
            throw new UserError(
              `no episode ${episodeId} in ${flags.db} (${store.countEpisodes()} stored); list the ids with: orchrm export --db ${flags.db} | jq -r .id`,
            );
          }
          streams.stdout.write(flags.json ? `${JSON.stringify(episode, null, 2)}\n` : `${formatEpisodeTrace(episode, { full: flags.full })}\n`);
        } finally {
          store.close();
        }
      }),
    );
}

/** The id of the episode stored last, said on stderr so the reader knows which one this is. */
function lastEpisodeId(store: Store, db: string, streams: CommandStreams): string {
  const count = store.countEpisodes();
  const last = count === 0 ? undefined : store.listEpisodes({ limit: 1, offset: count - 1 })[0];
  if (last === undefined) throw new UserError(`no episodes in ${db}; collect some first (orchrm collect --db ${db} ...)`);
  streams.stderr.write(`orchrm: episode ${last.id}, the last of ${count} in ${db}; pass an id to see another\n`);
  return last.id;
}
