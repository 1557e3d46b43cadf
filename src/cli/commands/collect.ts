import type { Command } from 'commander';
import { collectEpisodes, type CollectSummary } from '../../collect/index.js';
import { createBlockRegistry } from '../../agents/index.js';
import { createChatProvider, loadProviderConfig } from '../../llm/index.js';
import { UserError } from '../../core/errors.js';
import { createLlmOrchestrator } from '../../orchestrator/index.js';
import { openStore } from '../../store/index.js';
import { createBm25Retriever, exactMatchGrader, loadCorpus, loadTaskFile } from '../../tasks/index.js';
import { createProgress } from '../progress.js';
import { parseIntegerOption, runAction } from '../run-action.js';

interface CollectFlags {
  tasks: string;
  provider: string;
  plansPerTask: number;
  concurrency: number;
  db: string;
  seed: number;
  format: 'json' | 'xml';
  dom: 'low' | 'high' | 'auto';
  corpus?: string;
  tokenBudget?: number;
  timeoutMs?: number;
  keepPrompts: boolean;
  cache: boolean;
  json: boolean;
}

export function registerCollectCommand(program: Command): void {
  program
    .command('collect')
    .description('Sample plans for each task, execute them, and store every episode with all its artifacts.')
    .requiredOption('--tasks <file.jsonl>', 'tasks, one JSON object per line: {"id", "question", "answer"?}')
    .requiredOption('--provider <config.json>', 'OpenAI-compatible provider config (base URL, key env var, model per role)')
    .option('--plans-per-task <n>', 'plans sampled and executed per task', parseIntegerOption('--plans-per-task', 1), 1)
    .option('--concurrency <n>', 'episodes executed at once', parseIntegerOption('--concurrency', 1), 4)
    .option('--db <path>', 'SQLite store to write', 'orchrm.db')
    .option('--seed <n>', 'run seed; every call seed derives from it', parseIntegerOption('--seed', 0), 0)
    .option('--format <format>', 'plan format the orchestrator is asked for: json or xml', 'json')
    .option('--dom <dom>', 'degree of MAS asked for: low, high or auto', 'auto')
    .option('--corpus <file.jsonl>', 'corpus ({"id","title","text"} per line) for search blocks, BM25-indexed')
    .option('--token-budget <n>', 'execution tokens one episode may spend', parseIntegerOption('--token-budget', 1))
    .option('--timeout-ms <n>', 'wall time one episode may take, in milliseconds', parseIntegerOption('--timeout-ms', 1))
    .option('--keep-prompts', 'store full prompts of every call (responses are always stored)', false)
    .option('--no-cache', 'do not read or write the response cache')
    .option('--json', 'print the summary as JSON on stdout', false)
    .addHelpText(
      'after',
      '\nExample:\n  orchrm collect --tasks tasks.jsonl --provider vllm.json --plans-per-task 8 --concurrency 16 --db runs.db --seed 1',
    )
    .action(runAction(async (flags: CollectFlags) => collect(flags)));
}

async function collect(flags: CollectFlags): Promise<void> {
  if (flags.format !== 'json' && flags.format !== 'xml') throw new UserError(`--format must be json or xml, got "${flags.format}"`);
  const tasks = loadTaskFile(flags.tasks);
  const providerConfig = loadProviderConfig(flags.provider);
  if (!['low', 'high', 'auto'].includes(flags.dom)) throw new UserError(`--dom must be low, high or auto, got "${flags.dom}"`);
  const store = openStore(flags.db, { keepPrompts: flags.keepPrompts });
  const provider = createChatProvider(providerConfig, { ...(flags.cache && { cacheDatabase: flags.db }) });
  try {
    const blocks = createBlockRegistry();
    const orchestrator = createLlmOrchestrator({
      provider,
      catalog: blocks,
      format: flags.format,
      dom: flags.dom,
      structuredOutput: providerConfig.structuredOutput,
      name: providerConfig.models.orchestrator,
    });
    const retriever = flags.corpus ? createBm25Retriever(await loadCorpus(flags.corpus)) : undefined;
    const progress = createProgress('collect', tasks.length * flags.plansPerTask);
    const summary = await collectEpisodes({
      tasks,
      orchestrator,
      provider,
      blocks,
      store,
      plansPerTask: flags.plansPerTask,
      concurrency: flags.concurrency,
      seed: flags.seed,
      grader: exactMatchGrader,
      ...(retriever !== undefined && { retriever }),
      ...(flags.tokenBudget !== undefined && { tokenBudget: flags.tokenBudget }),
      ...(flags.timeoutMs !== undefined && { timeoutMs: flags.timeoutMs }),
      config: { tasksFile: flags.tasks, providerFile: flags.provider, corpus: flags.corpus ?? null, keepPrompts: flags.keepPrompts },
      onEpisode: (episode, done) => progress.update(done, episode.status),
    });
    progress.stop();
    process.stdout.write(flags.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, flags.db));
  } finally {
    provider.close();
    store.close();
  }
}

function formatSummary(summary: CollectSummary, db: string): string {
  const statuses = Object.entries(summary.byStatus)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  const accuracy = summary.accuracy === null ? 'n/a (no gold answers)' : `${(summary.accuracy * 100).toFixed(1)}% (${summary.correct}/${summary.graded})`;
  return [
    `run ${summary.runId}: ${summary.episodes} episodes in ${(summary.wallTimeMs / 1000).toFixed(1)} s -> ${db}`,
    `  status     ${statuses}`,
    `  accuracy   ${accuracy}`,
    `  tokens     orchestrator ${summary.tokens.orchestrator.totalTokens}, execution ${summary.tokens.execution.totalTokens}, verification ${summary.tokens.verification.totalTokens} (mean ${summary.meanTokensPerEpisode.toFixed(0)} per episode)`,
    `  calls      ${summary.calls.total} (${summary.calls.failed} failed, ${summary.calls.retries} retries, ${summary.calls.cached} from cache)`,
    `  inspect    orchrm inspect <episode-id> --db ${db}`,
    '',
  ].join('\n');
}
