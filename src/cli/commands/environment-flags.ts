import { z } from 'zod';
import { DomSchema, SystemError, UserError, type PlanTemplateLibrary, type Task } from '../../core/index.js';
import { createRemoteEnvironment, type Environment } from '../../environment/index.js';
import type { ProviderConfig } from '../../llm/index.js';
import type { Orchestrator } from '../../orchestrator/index.js';
import { genericPlanTemplates } from '../../select/index.js';
import { createSimEnvironment, loadCheckpoint, loadScenario, orchestratorRefOfModel, SIM_ORCHESTRATOR_MODEL_PREFIX } from '../../sim/index.js';
import { createBm25Retriever, loadCorpus, SUITES, type Suite } from '../../tasks/index.js';
import type { NamedPath } from '../output-guard.js';
import { createCliEvents } from '../progress.js';

/**
 * What `--format` and `--split` of `collect` and `bon` may say; each command gives them its own
 * help and default (`PlanFormatFlagSchema.default('json').meta({...})`), and commander checks
 * them as the choices they are.
 */
export const PlanFormatFlagSchema = z.enum(['json', 'xml']);
export const SplitFlagSchema = z.enum(['train', 'test']);

/** The flags `collect` and `bon` declare alike, each once, here: the commands' schemas take these fields. */
export const sharedEnvironmentFlags = {
  /** How `--tasks` is read: spread after `tasks` in a command's schema. */
  taskFile: {
    suite: z
      .enum([...SUITES, 'auto'])
      .optional()
      .meta({ placeholder: 'suite', description: 'format of --tasks: gsm8k, math, aime, hotpotqa, musique, jsonl or auto; also picks the grader (default: generic JSONL, exact match)' }),
    questionField: z.string().optional().meta({ placeholder: 'path', description: 'with --suite jsonl: field holding the question' }),
    answerField: z.string().optional().meta({ placeholder: 'path', description: 'with --suite jsonl: field holding the gold answer' }),
    idField: z.string().optional().meta({ placeholder: 'path', description: 'with --suite jsonl: field holding the task id' }),
  },
  checkpoint: z.array(z.string()).default([]).meta({ placeholder: 'file', description: 'extra simulated orchestrator checkpoint to serve (repeatable)' }),
  dom: z
    .enum([...DomSchema.options, 'auto'])
    .default('auto')
    .meta({ placeholder: 'dom', description: 'degree of MAS asked for: low, high or auto' }),
};

/** The flags `collect` and `bon` share: where tasks, models and documents come from. */
export interface EnvironmentFlags {
  tasks?: string;
  suite?: z.output<typeof sharedEnvironmentFlags.taskFile.suite>;
  questionField?: string;
  answerField?: string;
  idField?: string;
  scenario?: string;
  split: z.output<typeof SplitFlagSchema>;
  count: number;
  provider?: string;
  orchestrator?: string;
  checkpoint: string[];
  corpus?: string;
  format: z.output<typeof PlanFormatFlagSchema>;
  dom: z.output<typeof sharedEnvironmentFlags.dom>;
  db: string;
  cache: boolean;
}

/** What the command will ask the server for, checked before anything is spent. */
export interface EnvironmentNeeds {
  /** The judge slot is used (Best-of-N judge strategies). @default false */
  judge?: boolean;
}

/** The environment the flags describe, and what the command takes from it. */
export interface FlagEnvironment {
  environment: Environment;
  /** The tasks of `--tasks`, or `--count` tasks of the scenario's `--split`. */
  tasks: Task[];
  /** The orchestrator `--orchestrator` names (default: the provider config's, else the simulated `base`). */
  orchestrator: Orchestrator;
  /** The provider config, when the models are served over HTTP. */
  providerConfig: ProviderConfig | undefined;
  /** Fixed plans offered beside the sampled ones: the simulator's plan kinds in a scenario run, else the generic templates. */
  templates: PlanTemplateLibrary;
  /** What the run used, recorded with it. */
  config: Record<string, unknown>;
}

const SIM_PREFIX = 'sim:';

/** The files the flags name for reading, for the check that the command's --db is none of them. */
export function environmentInputs(flags: Pick<EnvironmentFlags, 'tasks' | 'provider' | 'corpus' | 'scenario' | 'checkpoint'> & { templates?: string | undefined }): NamedPath[] {
  return [
    { flag: '--tasks', path: flags.tasks },
    { flag: '--provider', path: flags.provider },
    { flag: '--corpus', path: flags.corpus },
    { flag: '--scenario', path: flags.scenario },
    { flag: '--templates', path: flags.templates },
    ...flags.checkpoint.map((path) => ({ flag: '--checkpoint', path })),
  ];
}

/**
 * Builds the environment the flags describe: a task file (`--tasks`) or a scenario's split
 * (`--scenario`); an OpenAI-compatible server (`--provider`, a remote environment) or the
 * scenario's simulation in-process (the simulated environment). The wiring itself is the
 * library's (`createRemoteEnvironment`, `createSimEnvironment`); this only reads flags.
 */
export async function environmentFromFlags(flags: EnvironmentFlags, needs: EnvironmentNeeds = {}): Promise<FlagEnvironment> {
  const { format, dom, split, suite } = flags;
  if (flags.suite !== undefined && flags.tasks === undefined) throw new UserError('--suite describes a --tasks file; give the file with --tasks');
  if ((flags.tasks === undefined) === (flags.scenario === undefined)) {
    throw new UserError('give either --tasks <file.jsonl> or --scenario <name|file> (tasks generated by the simulated environment)');
  }
  if (flags.provider === undefined && flags.scenario === undefined) {
    throw new UserError('--provider <config.json> is required unless --scenario runs the simulated models in-process');
  }
  const model = orchestratorModel(flags.orchestrator);
  const simulated = flags.scenario === undefined ? undefined : await createSimEnvironment(loadScenario(flags.scenario), { checkpoints: await Promise.all(flags.checkpoint.map(loadCheckpoint)) });
  for (const missing of simulated?.unavailable ?? []) process.stderr.write(`orchrm: family ${missing.family} skipped: ${missing.reason}\n`);

  let environment: Environment;
  let tasks: Task[];
  let providerConfig: ProviderConfig | undefined;
  let resolvedSuite: Suite | undefined;
  if (flags.provider !== undefined) {
    // Scenario tasks are made now, so a scenario that cannot make them fails before the server is asked.
    const scenarioTasks = simulated?.tasks(split, flags.count);
    const remote = await createRemoteEnvironment(flags.provider, flags.tasks ?? scenarioTasks ?? [], {
      ...(suite !== undefined && { suite }),
      fields: {
        ...(flags.questionField !== undefined && { questionField: flags.questionField }),
        ...(flags.answerField !== undefined && { answerField: flags.answerField }),
        ...(flags.idField !== undefined && { idField: flags.idField }),
      },
      ...(flags.corpus !== undefined && { corpus: flags.corpus }),
      ...(simulated !== undefined && { retriever: simulated.retriever }),
      ...(flags.cache && { cacheDatabase: flags.db }),
      checkModels: { ...(model !== undefined && { orchestrator: { model, source: '--orchestrator' } }), ...(needs.judge && { judge: true }) },
      events: createCliEvents({ stderr: process.stderr }).sink,
      // A simulated orchestrator served over HTTP records its checkpoint, as in-process.
      orchestratorRef: (name) => orchestratorRefOfModel(name, simulated?.checkpoints),
    });
    environment = remote;
    tasks = remote.tasks(split);
    providerConfig = remote.providerConfig;
    resolvedSuite = remote.suite;
  } else {
    if (simulated === undefined) throw new SystemError('environmentFromFlags: neither --provider nor --scenario survived the flag checks');
    tasks = simulated.tasks(split, flags.count);
    // --corpus replaces the scenario's documents for search blocks (the simulated judge keeps reading its own).
    environment = flags.corpus === undefined ? simulated : { ...simulated, retriever: createBm25Retriever(await loadCorpus(flags.corpus)) };
  }
  const orchestrator = environment.orchestrator(model, { format, dom });
  return {
    environment,
    tasks,
    orchestrator,
    providerConfig,
    templates: environment.templates ?? genericPlanTemplates({ search: environment.retriever !== undefined }),
    config: {
      tasksFile: flags.tasks ?? null,
      suite: resolvedSuite ?? null,
      scenario: simulated?.scenario ?? null,
      split: flags.scenario === undefined ? null : flags.split,
      providerFile: flags.provider ?? null,
      provider: providerConfig ? 'openai-compatible' : 'sim-in-process',
      orchestratorModel: model ?? providerConfig?.models.orchestrator ?? `${SIM_ORCHESTRATOR_MODEL_PREFIX}base`,
      corpus: flags.corpus ?? null,
    },
  };
}

/** `sim:<checkpoint>` names a simulated orchestrator checkpoint; anything else is a model name. */
function orchestratorModel(flag: string | undefined): string | undefined {
  if (flag === undefined) return undefined;
  return flag.startsWith(SIM_PREFIX) ? `${SIM_ORCHESTRATOR_MODEL_PREFIX}${flag.slice(SIM_PREFIX.length)}` : flag;
}
