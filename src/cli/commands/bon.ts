import { existsSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { loadRewardModel } from '../../rm/model-file.js';
import type { TrainedRewardModel } from '../../rm/trained-reward-model.js';
import { trainingMismatch, worldOfRun } from '../../rm/index.js';
import { DEFAULT_NS, formatBonTable, loadPlanTemplates, recordBestOfN, runBestOfN, STRATEGY_NAMES, type StrategyName } from '../../select/index.js';
import { openStore } from '../../store/index.js';
import { createCliEvents } from '../progress.js';
import { parseIntegerOption, runAction } from '../run-action.js';
import { environmentFromFlags } from './environment-flags.js';
import { commandSummary } from '../command-catalog.js';

interface BonFlags {
  scenario?: string;
  tasks?: string;
  suite?: string;
  questionField?: string;
  answerField?: string;
  idField?: string;
  taskFile?: string;
  split: string;
  count: number;
  provider?: string;
  orchestrator?: string;
  checkpoint: string[];
  corpus?: string;
  format: string;
  dom: string;
  rm?: string;
  n: number;
  curve: boolean;
  strategies?: string;
  pool: string;
  templates?: string;
  topK: number;
  adaptiveMargin: number;
  seed: number;
  concurrency: number;
  db: string;
  cache: boolean;
  json: boolean;
}

const RM_STRATEGIES: ReadonlySet<StrategyName> = new Set(['rm', 'rm+templates', 'rm-topk-vote', 'rm-adaptive']);

/** `orchrm bon`: Best-of-N plan selection against every baseline, with full token accounting (issue 6). */
export function registerBonCommand(program: Command): void {
  program
    .command('bon')
    .description(commandSummary('bon'))
    .option('--tasks <file.jsonl>', 'tasks with gold answers, one JSON object per line (needs --provider); read as --suite says')
    .option('--suite <suite>', 'format of --tasks: gsm8k, math, aime, hotpotqa, musique, jsonl or auto; also picks the grader (default: generic JSONL, exact match)')
    .option('--question-field <path>', 'with --suite jsonl: field holding the question')
    .option('--answer-field <path>', 'with --suite jsonl: field holding the gold answer')
    .option('--id-field <path>', 'with --suite jsonl: field holding the task id')
    .option('--scenario <name|file>', 'simulated scenario whose tasks and models are used instead (in-process)')
    .option('--split <split>', 'with --scenario: train or test', 'test')
    .option('--count <n>', 'with --scenario: number of tasks', parseIntegerOption('--count', 1), 200)
    .addOption(new Option('--task-file <file.jsonl>').hideHelp())
    .option('--provider <config.json>', 'OpenAI-compatible provider config (orchestrator, worker and judge slots)')
    .option('--orchestrator <model>', 'orchestrator model; sim:<checkpoint> is a simulated checkpoint (default: the provider config\'s orchestrator, else sim:base)')
    .option('--checkpoint <file>', 'extra simulated orchestrator checkpoint to serve (repeatable)', (value: string, list: string[]) => [...list, value], [])
    .option('--corpus <file.jsonl>', 'corpus for search blocks, BM25-indexed')
    .option('--format <format>', 'plan format asked for: json or xml', 'json')
    .option('--dom <dom>', 'degree of MAS asked for: low, high or auto', 'auto')
    .option('--rm <model.safetensors>', 'trained reward model file (orchrm rm train)')
    .option('--n <n>', 'N: plans sampled per task', parseIntegerOption('--n', 1), 8)
    .option('--curve', `also evaluate N in {${DEFAULT_NS.join(', ')}} over the same samples`, false)
    .option('--strategies <list>', `comma-separated, from ${STRATEGY_NAMES.join(', ')} (default: all; rm ones need --rm)`)
    .addOption(
      new Option('--pool <pool>', 'sampled: choose among the N sampled plans; sampled+templates: also run every template plan on every task (fixed-plan baselines) and let rm+templates choose among samples and templates')
        .choices(['sampled', 'sampled+templates'])
        .default('sampled'),
    )
    .option('--templates <file.json>', 'template plans for --pool sampled+templates: [{"name", "plan"}] (default: the scenario\'s plan kinds, else cot, sc-5, reflexion-3, debate-3x3 and, with a corpus, search)')
    .option('--top-k <k>', 'executions of rm-topk-vote', parseIntegerOption('--top-k', 1), 3)
    .option('--adaptive-margin <logits>', 'rm-adaptive executes more while best - next score is below this', parseNumber, 1)
    .option('--seed <n>', 'seed of sampling, execution, judging and bootstrap', parseIntegerOption('--seed', 0), 0)
    .option('--concurrency <n>', 'tasks worked at once', parseIntegerOption('--concurrency', 1), 4)
    .option('--db <path>', 'SQLite store the results are written to', 'orchrm.db')
    .option('--no-cache', 'do not read or write the response cache (remote providers)')
    .option('--json', 'print the N table as JSON on stdout', false)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --count 300 --db sim.db',
        '  orchrm bon --tasks aime-2025.jsonl --suite aime --provider vllm.json --rm rm.safetensors --n 8 --db runs.db',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --curve --strategies single,rm,majority,oracle --json',
        '  orchrm bon --scenario default --rm rm.safetensors --n 8 --pool sampled+templates --strategies single,first-valid,rm,rm+templates',
        '',
        'With --pool sampled+templates each template runs on every task as a fixed-plan baseline (rows fixed:<name>),',
        'best-fixed is the single template best on these tasks and best-fixed-per-family the best per task suite,',
        'both chosen after the fact on the very tasks they are scored on (the strongest fixed-plan baselines).',
      ].join('\n'),
    )
    .action(runAction(async (flags: BonFlags) => bon(flags)));
}

async function bon(flags: BonFlags): Promise<void> {
  if (flags.taskFile !== undefined) throw new UserError(`--task-file is now --tasks, as in collect: orchrm bon --tasks ${flags.taskFile} --suite <suite> ...`);
  if (flags.tasks !== undefined && /^\d+$/.test(flags.tasks) && !existsSync(flags.tasks)) {
    throw new UserError(`--tasks takes a task file (as in collect); for the number of scenario tasks use --count ${flags.tasks}`);
  }
  if (flags.templates !== undefined && flags.pool !== 'sampled+templates') throw new UserError('--templates needs --pool sampled+templates');
  const strategies = chooseStrategies(flags);
  const orchestrator = flags.orchestrator ?? (flags.provider === undefined || flags.scenario !== undefined ? 'sim:base' : undefined);
  const { taskFile: _taskFile, orchestrator: _orchestrator, ...rest } = flags;
  const needsJudge = strategies.includes('judge') || strategies.includes('plan-judge');
  const setup = await environmentFromFlags({ ...rest, ...(orchestrator !== undefined && { orchestrator }) }, { judge: needsJudge });
  const { environment } = setup;
  const store = openStore(flags.db);
  try {
    const rewardModel: TrainedRewardModel | undefined = flags.rm === undefined ? undefined : await loadRewardModel(flags.rm);
    if (rewardModel !== undefined) {
      const mismatch = trainingMismatch(flags.rm!, rewardModel.provenance.trainedOn, worldOfRun({ config: setup.config }));
      if (mismatch !== undefined) process.stderr.write(`orchrm: warning: ${mismatch}\n`);
    }
    const ns = flags.curve ? [...new Set([...DEFAULT_NS, flags.n])] : [flags.n];
    const progress = createCliEvents({ stderr: process.stderr, bars: { bon: {} } });
    const run = await runBestOfN({
      tasks: setup.tasks,
      orchestrator: setup.orchestrator,
      provider: environment.provider,
      judge: environment.provider,
      blocks: environment.blocks,
      grader: environment.grader,
      ...(environment.retriever !== undefined && { retriever: environment.retriever }),
      ...(rewardModel !== undefined && { rewardModel }),
      ...(flags.pool === 'sampled+templates' && { templates: flags.templates === undefined ? setup.templates : loadPlanTemplates(flags.templates) }),
      config: { ns, strategies, pool: flags.pool as 'sampled' | 'sampled+templates', topK: flags.topK, adaptiveMargin: flags.adaptiveMargin, seed: flags.seed, concurrency: flags.concurrency },
      events: progress.sink,
    });
    progress.close();
    const recorded = recordBestOfN(store, run, { ...setup.config, rewardModel: flags.rm ?? null });
    const table = recorded.curve.find((entry) => entry.n === flags.n)!;
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(flags.curve ? { ...table, curve: recorded.curve } : table, null, 2)}\n`);
      return;
    }
    const tables = flags.curve ? recorded.curve : [table];
    process.stdout.write(`${tables.map(formatBonTable).join('\n')}\nstored as run ${recorded.runId} (result ${recorded.resultId}) in ${flags.db}\n`);
  } finally {
    environment.close();
    store.close();
  }
}

/** The strategies asked for; without --rm the rm ones are dropped from the default list (and refused when named). */
function chooseStrategies(flags: BonFlags): StrategyName[] {
  if (flags.strategies === undefined) {
    const pooled = STRATEGY_NAMES.filter((name) => flags.pool === 'sampled+templates' || name !== 'rm+templates');
    if (flags.rm !== undefined) return pooled;
    process.stderr.write('orchrm: no --rm given; running the strategies that need no reward model\n');
    return pooled.filter((name) => !RM_STRATEGIES.has(name));
  }
  const names = flags.strategies.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(STRATEGY_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new UserError(`--strategies: unknown ${unknown.join(', ')}; choose from ${STRATEGY_NAMES.join(', ')}`);
  const chosen = names as StrategyName[];
  const needRm = chosen.filter((name) => RM_STRATEGIES.has(name));
  if (needRm.length > 0 && flags.rm === undefined) throw new UserError(`--strategies ${needRm.join(', ')} need a reward model: pass --rm <model.safetensors> (orchrm rm train)`);
  if (chosen.length === 0) throw new UserError('--strategies is empty; name at least one strategy');
  return chosen;
}

function parseNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError(`--adaptive-margin must be a number >= 0, got "${value}"`);
  return parsed;
}
