import { createBlockRegistry } from '../agents/index.js';
import { type EventSink, InvalidInputError, type LogEvent, type OrchestratorRef, type Retriever, type Task, type TaskSplit, UserError } from '../core/index.js';
import { checkServedModels, createChatProvider, loadProviderConfig, parseProviderConfig, type ConfiguredChatProvider, type NeededModel, type ProviderConfig, type ProviderConfigInput } from '../llm/index.js';
import { createLlmOrchestrator, offeredBlocks } from '../orchestrator/index.js';
import { createBm25Retriever, detectSuite, exactMatchGrader, graderFor, loadCorpus, loadSuite, loadTaskFile, type LoadSuiteOptions, type Suite } from '../tasks/index.js';
import type { Environment } from './environment.js';

/**
 * Where a remote environment's tasks come from: a task file, tasks already made (both stand for
 * every split), or anything that makes tasks by split (a scenario's generator).
 */
export type RemoteTaskSource = string | readonly Task[] | TaskGenerator;

/** Makes tasks by split, as an environment does. */
export interface TaskGenerator {
  tasks(split: TaskSplit, count?: number): Task[];
}

export interface RemoteEnvironmentOptions {
  /** How a task file is read (`auto` guesses from its first record); also picks the grader. @default generic task JSONL, exact match */
  suite?: Suite | 'auto';
  /** With suite `jsonl`: which fields hold the question, answer and id. */
  fields?: LoadSuiteOptions;
  /** Corpus file (`{"id","title","text"}` per line) for search blocks, BM25-indexed. */
  corpus?: string;
  /** A retriever to use when there is no `corpus` (e.g. a scenario's documents). */
  retriever?: Retriever;
  /** Response cache database (e.g. the run store's file). @default the provider config's `cache.path` */
  cacheDatabase?: string;
  /**
   * Models asked of the server before anything is spent (`GET /v1/models`): the orchestrator
   * (`orchestrator` when the run asks for another model than `models.orchestrator`), the worker,
   * and the judge when `judge` is set. `false` skips the check. @default {}
   */
  checkModels?: false | { orchestrator?: NeededModel; judge?: boolean };
  /** Told what the check could not verify (a server without `GET /v1/models`), as a `warn` log event of source `environment`. */
  events?: EventSink<LogEvent>;
  /** Who is recorded as having written a model's plans. @default `{ name: model }` */
  orchestratorRef?: (model: string) => OrchestratorRef;
}

/** An environment of OpenAI-compatible servers: what `createRemoteEnvironment` returns. */
export interface RemoteEnvironment extends Environment {
  readonly providerConfig: ProviderConfig;
  /** The suite the task file was read as (detected for `auto`); undefined for generic task JSONL or a task generator. */
  readonly suite: Suite | undefined;
  /** Remote orchestrators are not trained here (no token log-probabilities yet). */
  readonly trainable?: undefined;
}

/**
 * An environment of real models behind an OpenAI-compatible server: its provider config (or
 * the config file; either is validated), the tasks of a task file, and optionally a corpus for search blocks. Every
 * input file is read, and the server asked for its models, before the provider opens its
 * response cache: a bad file, a dead server or a wrong model name writes nothing. A task file
 * stands for every split: `tasks('train')` and `tasks('test')` both return its tasks.
 *
 * @example
 * const environment = await createRemoteEnvironment('vllm.json', 'aime-2025.jsonl', { suite: 'aime', cacheDatabase: 'runs.db' });
 * const orchestrator = environment.orchestrator(); // the config's models.orchestrator
 */
export async function createRemoteEnvironment(providerConfig: ProviderConfigInput | string, taskSource: RemoteTaskSource, options: RemoteEnvironmentOptions = {}): Promise<RemoteEnvironment> {
  const suite = options.suite === 'auto' && typeof taskSource === 'string' ? detectSuite(taskSource) : options.suite === 'auto' ? undefined : options.suite;
  const tasks = taskMaker(taskSource, suite, options.fields ?? {}, (message) => options.events?.({ type: 'log', level: 'warn', source: 'environment', message }));
  const retriever = options.corpus !== undefined ? createBm25Retriever(await loadCorpus(options.corpus)) : options.retriever;
  const config = typeof providerConfig === 'string' ? loadProviderConfig(providerConfig) : parseProviderConfig(providerConfig);
  const configName = typeof providerConfig === 'string' ? providerConfig : 'the provider config';
  if (options.checkModels !== false) {
    const check = options.checkModels ?? {};
    const needed: NeededModel[] = [check.orchestrator ?? { model: config.models.orchestrator, source: `models.orchestrator in ${configName}` }, { model: config.models.worker, source: `models.worker in ${configName}` }];
    if (check.judge) needed.push({ model: config.models.judge, source: `models.judge in ${configName}` });
    const { warning } = await checkServedModels(config, needed);
    if (warning !== undefined) options.events?.({ type: 'log', level: 'warn', source: 'environment', message: warning });
  }
  const provider: ConfiguredChatProvider = createChatProvider(config, { ...(options.cacheDatabase !== undefined && { cacheDatabase: options.cacheDatabase }) });
  const blocks = offeredBlocks(createBlockRegistry(), { hasRetriever: retriever !== undefined });
  const describe = options.orchestratorRef ?? ((model: string): OrchestratorRef => ({ name: model }));
  return {
    name: provider.name,
    provider,
    blocks,
    retriever,
    grader: suite === undefined ? exactMatchGrader : graderFor(suite),
    providerConfig: config,
    suite,
    tasks,
    // Without a reference no model is named in requests: the provider asks for models.orchestrator.
    orchestrator: (reference, orchestratorOptions = {}) =>
      createLlmOrchestrator({
        provider,
        catalog: blocks,
        ...(orchestratorOptions.format !== undefined && { format: orchestratorOptions.format }),
        ...(orchestratorOptions.dom !== undefined && { dom: orchestratorOptions.dom }),
        structuredOutput: config.structuredOutput,
        ...(reference !== undefined && { model: reference }),
        ref: describe(reference ?? config.models.orchestrator),
      }),
    identity: { baseURL: config.baseURL, models: config.models, tasks: typeof taskSource === 'string' ? taskSource : isTaskList(taskSource) ? taskSource.map((task) => task.id) : 'generated', suite: suite ?? null },
    close: () => provider.close(),
  };
}

function isTaskList(source: Exclude<RemoteTaskSource, string>): source is readonly Task[] {
  return Array.isArray(source);
}

/** `tasks(split, count)` of a source; a task file is read at once, so a bad file fails before anything else. */
function taskMaker(source: RemoteTaskSource, suite: Suite | undefined, fields: LoadSuiteOptions, warn: (message: string) => void): TaskGenerator['tasks'] {
  if (typeof source !== 'string' && !isTaskList(source)) return (split, count) => source.tasks(split, count);
  const fixed = typeof source === 'string' ? readTaskFile(source, suite, fields, warn) : source;
  return (_split, count) => (count === undefined ? [...fixed] : fixed.slice(0, count));
}

/**
 * Reads a task file as `suite` says, catching the wrong-format mistakes that would otherwise
 * cost a run: a benchmark file read as orchrm's own task format (every line refused for its
 * missing "id") is told the suite it looks like; one read as generic `jsonl` with the default
 * fields, where its own suite reads it differently (a GSM8K file's gold answers would be whole
 * worked solutions that no answer matches, 0% accuracy), is refused with the suite to pass; and
 * when no task of a `jsonl` file has a gold answer, `warn` says that nothing can be graded.
 */
function readTaskFile(path: string, suite: Suite | undefined, fields: LoadSuiteOptions, warn: (message: string) => void): Task[] {
  const suggestion = (detected: Suite) => `pass --suite ${detected} (suite: '${detected}' in the library), or --suite auto`;
  if (suite === undefined) {
    try {
      return loadTaskFile(path);
    } catch (error) {
      const detected = error instanceof InvalidInputError ? detectSuite(path) : 'jsonl';
      if (detected !== 'jsonl') throw new UserError(`${path} is not in orchrm's own task format ({"id", "question", "answer"} per line): it looks like a ${detected} file; ${suggestion(detected)}`, { cause: error });
      throw error;
    }
  }
  const customFields = fields.questionField !== undefined || fields.answerField !== undefined || fields.idField !== undefined;
  const tasks = loadSuite(path, suite, fields);
  if (suite !== 'jsonl') return tasks;
  const detected = customFields ? 'jsonl' : detectSuite(path);
  if (detected !== 'jsonl') {
    throw new UserError(`${path} looks like a ${detected} file, which --suite jsonl reads with the wrong fields and grader (a gsm8k gold answer would be the whole worked solution ending in "#### N", which no answer matches); ${suggestion(detected)}`);
  }
  if (tasks.every((task) => task.answer === undefined || task.answer.trim() === '')) {
    warn(`${path}: no task has a gold answer in the field "${fields.answerField ?? 'answer'}", so no episode can be graded (accuracy n/a); name the field that holds it with --answer-field`);
  }
  return tasks;
}
