import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { formatEpisodeTrace, openStore } from '../../store/index.js';
import { runAction } from '../run-action.js';
import { processStreams, type CommandStreams } from '../command-streams.js';

interface InspectFlags {
  db: string;
  json: boolean;
  full: boolean;
}


/**
 * Adds `orchrm inspect <episode-id> --db <path> [--json] [--full]`: a readable trace of one
 * episode (plan, every node with its calls and artifacts, answer, grade, tokens by role), or the
 * stored Episode as JSON.
 */
export function registerInspectCommand(program: Command, streams: CommandStreams = processStreams): void {
  program
    .command('inspect')
    .argument('<episode-id>', 'id of a stored episode')
    .description('Print a readable trace of one stored episode: plan, nodes, calls, artifacts, answer, tokens.')
    .option('--db <path>', 'SQLite store to read', 'orchrm.db')
    .option('--json', 'print the stored episode as JSON', false)
    .option('--full', 'print prompts (when kept), responses and outputs in full', false)
    .addHelpText('after', '\nExample:\n  orchrm inspect ep_3f2a9c0d11e4b6a7 --db runs.db --full')
    .action(
      runAction((episodeId: string, flags: InspectFlags) => {
        const store = openStore(flags.db, { readonly: true });
        try {
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
