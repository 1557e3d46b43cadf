import { type Episode, type LlmCallRecord, type NodeTrace, type Pair, PAIR_SOURCES, type RewardModel, UserError } from '../../core/index.js';
import { compareExplanations, explainScore, explanationMethodNote, type ScoreExplanation, TrainedRewardModel } from '../../rm/index.js';
import type { Store, TaskFacets, TaskListing, TaskListQuery } from '../../store/index.js';
import { type BestOfNIndex, readBestOfN, type ViewerBestOfN } from './best-of-n-picks.js';

/** A document a search block retrieved, as the viewer shows it. */
export interface ViewerDocument {
  id: string;
  title: string;
  text: string;
}

/**
 * Looks documents up by id (a corpus file, the simulator's knowledge base); ids it does not know
 * are left out. Asynchronous so that a lookup can load its corpus on first use.
 */
export type DocumentLookup = (ids: readonly string[]) => Promise<Map<string, ViewerDocument>>;

export interface ViewerDataOptions {
  /** The database, opened read-only. */
  store: Store;
  /** Scores every plan; a model trained here (`TrainedRewardModel`) also explains each score. */
  model?: RewardModel;
  /** Resolves the document ids of search steps to their text; without it the viewer shows ids. */
  documents?: DocumentLookup;
  /** Longest text sent for any one field (plan texts, outputs, responses); longer ones are cut with a note. @default 20000 */
  maxTextChars?: number;
  /** Largest contributions sent with each plan's explanation. @default 12 */
  topContributions?: number;
}

/** A plan's score taken apart: the largest contributions and what the rest add up to. */
export interface ViewerExplanation {
  method: ScoreExplanation['method'];
  note: string;
  baseline: number;
  top: { encoder: string; feature: string; contribution: number }[];
  rest: { features: number; contribution: number };
  byEncoder: ScoreExplanation['byEncoder'];
}

/** One node of a plan's graph, with what its execution did when it ran. */
export interface ViewerGraphNode {
  id: string;
  agent: string;
  /** The sub-task as the plan wrote it (before `${id}` substitution). */
  input: string;
  /** Position of its trace in the episode, when it ran (the key of `node()`). */
  position: number | null;
  status: NodeTrace['status'] | null;
  tokens: number | null;
  answer: string | null;
}

/** One executed plan of a task. */
export interface ViewerPlan {
  episodeId: string;
  sampleIndex: number;
  orchestrator: string;
  status: Episode['status'];
  reason: string | null;
  correct: boolean | null;
  finalAnswer: string | null;
  planFormat: Episode['planFormat'];
  planText: string;
  diagnostics: { code: string; message: string }[];
  warnings: string[];
  tokens: { orchestrator: number; execution: number; verification: number };
  wallTimeMs: number;
  graph: { dom: string; nodes: ViewerGraphNode[]; edges: { from: string; to: string }[]; answer: string | null; directAnswer: string | null } | null;
  /** The reasoning the orchestrator gave beside the plan, or the error of its call. */
  orchestratorReasoning: string | null;
  orchestratorError: string | null;
  score: number | null;
  explanation: ViewerExplanation | null;
}

/** One pair mined from a task's episodes. */
export interface ViewerPair {
  id: string;
  datasetId: string;
  /** Whether the dataset was mined label-free (no grade read anywhere). */
  labelFree: boolean;
  source: string;
  /** The process signal (`consensus`, `grounding`...), when the source has one. */
  signal: string | null;
  /** Whether this source decides by reading grades (outcome, efficiency). */
  readsGrades: boolean;
  winnerEpisodeId: string | null;
  loserEpisodeId: string | null;
  /** Plan texts of sides that are not stored episodes (imported pairs). */
  winnerText: string | null;
  loserText: string | null;
  weight: number;
  margin: number | null;
  split: string | null;
  evidence: Record<string, unknown>;
}

/** A task of the list: as the store lists it, and whether Best-of-N ran on it. */
export interface ViewerTaskListing extends TaskListing {
  bestOfN: boolean;
}

/** Everything the viewer shows about one task. */
export interface ViewerTask {
  /** `question` is null for a task only Best-of-N results name (bon stores outcomes, not tasks). */
  task: { id: string; suite: string; question: string | null; answer: string | null; aliases: string[]; metadata: string | null };
  plans: ViewerPlan[];
  pairs: ViewerPair[];
  /** Pairs of this task beyond those sent (the list is capped). */
  morePairs: number;
  model: { name: string; explains: boolean } | null;
  /** Each Best-of-N run's outcomes on this task: every strategy at every N, with the candidate it picked. */
  bestOfN: ViewerBestOfN[];
}

/** One LLM call of a node. */
export interface ViewerCall {
  index: number;
  role: string;
  slot: string;
  model: string;
  messages: { role: string; content: string }[] | null;
  response: string;
  reasoning: string | null;
  error: string | null;
  attemptErrors: string[];
  tokens: { prompt: number; completion: number; total: number };
  latencyMs: number;
  attempts: number;
  cached: boolean;
}

/** Everything one node of one episode left behind. */
export interface ViewerNode {
  episodeId: string;
  position: number;
  nodeId: string;
  agent: string;
  status: NodeTrace['status'];
  reason: string | null;
  /** The sub-task after `${id}` substitution. */
  input: string;
  params: string;
  output: string | null;
  answer: string | null;
  artifacts: unknown;
  documents: ViewerDocument[];
  calls: ViewerCall[];
  tokens: { prompt: number; completion: number; total: number };
  latencyMs: number;
}

/** What separates two plans of a task in the model's eyes. */
export interface ViewerComparison {
  a: string;
  b: string;
  scoreA: number;
  scoreB: number;
  difference: number;
  note: string;
  top: { encoder: string; feature: string; a: number; b: number; difference: number }[];
  rest: { features: number; difference: number };
}

/** Most pairs sent with a task (a task has at most a few hundred; the count of the rest is sent). */
const MAX_PAIRS_PER_TASK = 500;
/** Sources whose miner decides by reading grades (docs/pairs.md); checkpoint and process pairs never do. */
const GRADE_READING_SOURCES = new Set<string>(['outcome', 'efficiency']);

/**
 * What the episode viewer reads from a database, one request at a time: pages of the task list,
 * one task's plans (graphs, outcomes, tokens per node, the model's score and its reasons) and
 * mined pairs, one node's artifacts and calls. Nothing is loaded up front, so a database of any
 * size opens at once. Every text is capped at `maxTextChars` (the page says where).
 *
 * @example
 * const data = new ViewerData({ store: openStore('runs.db', { readonly: true }), model });
 * const { tasks } = data.tasks({ outcome: 'some-correct' }); await data.task(tasks[0].id);
 */
export class ViewerData {
  readonly store: Store;
  readonly model: RewardModel | undefined;
  readonly maxTextChars: number;
  private readonly documents: DocumentLookup | undefined;
  private readonly topContributions: number;
  private readonly labelFreeDatasets: Set<string>;
  private readonly bestOfN: BestOfNIndex;
  /** Tasks that only Best-of-N results name, in the order they first appear there. */
  private readonly bestOfNOnly: ViewerTaskListing[];

  constructor(options: ViewerDataOptions) {
    this.store = options.store;
    this.model = options.model;
    this.documents = options.documents;
    this.maxTextChars = options.maxTextChars ?? 20_000;
    this.topContributions = options.topContributions ?? 12;
    this.labelFreeDatasets = new Set(this.store.listPairDatasets().filter((dataset) => dataset.config.labelFree === true).map((dataset) => dataset.id));
    this.bestOfN = readBestOfN(this.store);
    this.bestOfNOnly = [...this.bestOfN.suites]
      .filter(([id]) => this.store.getTask(id) === undefined)
      .map(([id, suite]) => ({ id, suite, family: suite, split: null, question: '', questionChars: 0, episodes: 0, graded: 0, correct: 0, failed: 0, outcome: 'no-episodes', bestOfN: true }));
  }

  /**
   * Families, splits and outcomes with task counts (as of the first call: see `Store.taskIndex`),
   * tasks that only Best-of-N results name included.
   */
  facets(): TaskFacets {
    const stored = this.store.taskIndex().facets();
    if (this.bestOfNOnly.length === 0) return stored;
    const add = <Value extends string>(counts: { value: Value; tasks: number }[], value: Value) => {
      const found = counts.find((entry) => entry.value === value);
      if (found) found.tasks++;
      else counts.push({ value, tasks: 1 });
    };
    const families = stored.families.map((entry) => ({ ...entry }));
    const outcomes = stored.outcomes.map((entry) => ({ ...entry }));
    for (const task of this.bestOfNOnly) {
      add(families, task.family);
      add(outcomes, task.outcome);
    }
    const byCount = (a: { value: string; tasks: number }, b: { value: string; tasks: number }) => b.tasks - a.tasks || (a.value < b.value ? -1 : 1);
    return { tasks: stored.tasks + this.bestOfNOnly.length, families: families.sort(byCount), splits: stored.splits, outcomes: outcomes.sort(byCount) };
  }

  /**
   * A page of the task list: the stored tasks in stored order, then the tasks only Best-of-N
   * results name (no question stored; their id matches a search).
   */
  tasks(query: TaskListQuery): { total: number; tasks: ViewerTaskListing[] } {
    const { limit = 50, offset = 0 } = query;
    const stored = this.store.taskIndex().list(query);
    const search = query.search?.toLowerCase();
    const extra = this.bestOfNOnly.filter(
      (task) =>
        (query.family === undefined || task.family === query.family) &&
        query.split === undefined &&
        (query.outcome === undefined || task.outcome === query.outcome) &&
        (search === undefined || task.id.toLowerCase().includes(search)),
    );
    const tasks: ViewerTaskListing[] = stored.tasks.map((task) => ({ ...task, bestOfN: this.bestOfN.byTask.has(task.id) }));
    if (tasks.length < limit) {
      const start = Math.max(0, offset - stored.total);
      tasks.push(...extra.slice(start, start + limit - tasks.length));
    }
    return { total: stored.total + extra.length, tasks };
  }

  /** One task with its plans, pairs and, given a model, scores and their reasons; undefined when unknown. */
  async task(id: string): Promise<ViewerTask | undefined> {
    const task = this.store.getTask(id);
    const bestOfN = this.bestOfN.byTask.get(id) ?? [];
    if (task === undefined) {
      if (bestOfN.length === 0) return undefined;
      return {
        task: { id, suite: this.bestOfN.suites.get(id) ?? '', question: null, answer: null, aliases: [], metadata: null },
        plans: [],
        pairs: [],
        morePairs: 0,
        model: null,
        bestOfN,
      };
    }
    // Side by side in a stable order: by orchestrator (checkpoint), then sample.
    const episodes = this.episodesOf(id).sort((a, b) => compareText(orchestratorLabel(a), orchestratorLabel(b)) || a.sampleIndex - b.sampleIndex);
    const plans = episodes.map((episode) => this.plan(episode));
    await this.scorePlans(task.question, episodes, plans);
    const pairs: ViewerPair[] = [];
    let morePairs = 0;
    for (const pair of this.store.iteratePairs({ taskId: id })) {
      if (pairs.length < MAX_PAIRS_PER_TASK) pairs.push(this.pair(pair));
      else morePairs++;
    }
    return {
      task: {
        id: task.id,
        suite: task.suite,
        question: this.cut(task.question),
        answer: task.answer === undefined ? null : this.cut(task.answer),
        aliases: (task.answerAliases ?? []).slice(0, 20).map((alias) => this.cut(alias)),
        metadata: this.cut(JSON.stringify(task.metadata, null, 2)),
      },
      plans,
      pairs,
      morePairs,
      model: this.model === undefined ? null : { name: this.model.name, explains: this.model instanceof TrainedRewardModel },
      bestOfN,
    };
  }

  /** One node of one episode with its artifacts, documents and calls; undefined when unknown. */
  async node(episodeId: string, position: number): Promise<ViewerNode | undefined> {
    const episode = this.store.getEpisode(episodeId);
    const node = episode?.nodes[position];
    if (episode === undefined || node === undefined) return undefined;
    const documentIds = searchDocumentIds(node.artifacts);
    const found = documentIds.length === 0 || this.documents === undefined ? new Map<string, ViewerDocument>() : await this.documents(documentIds);
    return {
      episodeId,
      position,
      nodeId: node.nodeId,
      agent: node.agent,
      status: node.status,
      reason: this.cutOrNull(node.reason),
      input: this.cut(node.input),
      params: this.cut(JSON.stringify(node.params, null, 2)),
      output: this.cutOrNull(node.output),
      answer: this.cutOrNull(node.answer),
      artifacts: this.cutStrings(node.artifacts ?? null),
      documents: documentIds.flatMap((documentId) => {
        const document = found.get(documentId);
        return document === undefined ? [] : [{ id: documentId, title: this.cut(document.title), text: this.cut(document.text) }];
      }),
      calls: node.calls.map((call) => this.call(call)),
      tokens: { prompt: node.usage.promptTokens, completion: node.usage.completionTokens, total: node.usage.totalTokens },
      latencyMs: node.latencyMs,
    };
  }

  /** What separates two plans of a task for the model (needs a model trained here); undefined when a plan is unknown. */
  async compare(taskId: string, episodeA: string, episodeB: string): Promise<ViewerComparison | undefined> {
    const model = this.model;
    if (!(model instanceof TrainedRewardModel)) throw new UserError('comparing plans needs a reward model trained by orchrm (--model file.safetensors)');
    const task = this.store.getTask(taskId);
    const a = this.store.getEpisode(episodeA, { withCalls: false });
    const b = this.store.getEpisode(episodeB, { withCalls: false });
    if (task === undefined || a === undefined || b === undefined || a.task.id !== taskId || b.task.id !== taskId) return undefined;
    const explanationA = await explainScore(model, task.question, a.planText);
    const explanationB = await explainScore(model, task.question, b.planText);
    const comparison = compareExplanations(explanationA, explanationB);
    const top = comparison.differences.slice(0, this.topContributions * 2);
    const rest = comparison.differences.slice(top.length);
    return {
      a: episodeA,
      b: episodeB,
      scoreA: explanationA.score,
      scoreB: explanationB.score,
      difference: comparison.scoreDifference,
      note: explanationMethodNote(explanationA),
      top: top.map((entry) => ({ ...entry, feature: this.cut(entry.feature) })),
      rest: { features: rest.length, difference: rest.reduce((sum, entry) => sum + entry.difference, 0) },
    };
  }

  private episodesOf(taskId: string): Episode[] {
    const episodes: Episode[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = this.store.listEpisodes({ taskId, limit: 100, offset });
      for (const summary of page) {
        const episode = this.store.getEpisode(summary.id);
        if (episode !== undefined) episodes.push(episode);
      }
      if (page.length < 100) break;
    }
    return episodes;
  }

  private plan(episode: Episode): ViewerPlan {
    const traces = new Map(episode.nodes.map((node, position) => [node.nodeId, { node, position }]));
    const plan = episode.plan;
    const call = episode.orchestratorCall;
    return {
      episodeId: episode.id,
      sampleIndex: episode.sampleIndex,
      orchestrator: orchestratorLabel(episode),
      status: episode.status,
      reason: this.cutOrNull(episode.reason),
      correct: episode.grade === undefined ? null : episode.grade.correct,
      finalAnswer: this.cutOrNull(episode.finalAnswer),
      planFormat: episode.planFormat,
      planText: this.cut(episode.planText),
      diagnostics: episode.diagnostics.slice(0, 50).map((diagnostic) => ({ code: diagnostic.code, message: this.cut(diagnostic.message) })),
      warnings: episode.warnings.slice(0, 50).map((warning) => warning.code),
      tokens: { orchestrator: episode.usage.orchestrator.totalTokens, execution: episode.usage.execution.totalTokens, verification: episode.usage.verification.totalTokens },
      wallTimeMs: episode.wallTimeMs,
      graph:
        plan === undefined
          ? null
          : {
              dom: plan.dom,
              nodes: plan.nodes.map((node) => {
                const trace = traces.get(node.id);
                return {
                  id: node.id,
                  agent: node.agent,
                  input: this.cut(node.input),
                  position: trace?.position ?? null,
                  status: trace?.node.status ?? null,
                  tokens: trace?.node.usage.totalTokens ?? null,
                  answer: this.cutOrNull(trace?.node.answer),
                };
              }),
              edges: plan.edges.map((edge) => ({ from: edge.from, to: edge.to })),
              answer: plan.answer ?? null,
              directAnswer: this.cutOrNull(plan.directAnswer),
            },
      orchestratorReasoning: this.cutOrNull(call?.reasoning),
      orchestratorError: this.cutOrNull(call?.error),
      score: null,
      explanation: null,
    };
  }

  private async scorePlans(question: string, episodes: readonly Episode[], plans: ViewerPlan[]): Promise<void> {
    const model = this.model;
    if (model === undefined || episodes.length === 0) return;
    if (!(model instanceof TrainedRewardModel)) {
      const scores = await model.score(question, episodes.map((episode) => episode.planText));
      scores.forEach((score, index) => (plans[index]!.score = score));
      return;
    }
    for (const [index, episode] of episodes.entries()) {
      const explanation = await explainScore(model, question, episode.planText);
      const top = explanation.contributions.slice(0, this.topContributions);
      const rest = explanation.contributions.slice(top.length);
      plans[index]!.score = explanation.score;
      plans[index]!.explanation = {
        method: explanation.method,
        note: explanationMethodNote(explanation),
        baseline: explanation.baseline,
        top: top.map((entry) => ({ encoder: entry.encoder, feature: this.cut(entry.feature), contribution: entry.contribution })),
        rest: { features: rest.length, contribution: rest.reduce((sum, entry) => sum + entry.contribution, 0) },
        byEncoder: explanation.byEncoder,
      };
    }
  }

  private pair(pair: Pair): ViewerPair {
    const signal = pair.evidence.signal;
    return {
      id: pair.id,
      datasetId: pair.datasetId,
      labelFree: this.labelFreeDatasets.has(pair.datasetId),
      source: pair.source,
      signal: typeof signal === 'string' ? signal : null,
      readsGrades: GRADE_READING_SOURCES.has(pair.source) || !(PAIR_SOURCES as readonly string[]).includes(pair.source),
      winnerEpisodeId: pair.winner.episodeId ?? null,
      loserEpisodeId: pair.loser.episodeId ?? null,
      winnerText: pair.winner.episodeId === undefined ? this.cut(pair.winner.planText) : null,
      loserText: pair.loser.episodeId === undefined ? this.cut(pair.loser.planText) : null,
      weight: pair.weight,
      margin: pair.margin ?? null,
      split: pair.split ?? null,
      evidence: this.cutStrings(pair.evidence) as Record<string, unknown>,
    };
  }

  private call(call: LlmCallRecord): ViewerCall {
    return {
      index: call.index,
      role: call.role,
      slot: call.slot,
      model: this.cut(call.model),
      messages: call.messages === undefined ? null : call.messages.slice(0, 50).map((message) => ({ role: message.role, content: this.cut(message.content) })),
      response: this.cut(call.response),
      reasoning: this.cutOrNull(call.reasoning),
      error: this.cutOrNull(call.error),
      attemptErrors: (call.attemptErrors ?? []).slice(0, 20).map((error) => this.cut(error)),
      tokens: { prompt: call.usage.promptTokens, completion: call.usage.completionTokens, total: call.usage.totalTokens },
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      cached: call.cached,
    };
  }

  private cut(text: string): string {
    if (text.length <= this.maxTextChars) return text;
    return `${text.slice(0, this.maxTextChars)}\n[orchrm view: ${(text.length - this.maxTextChars).toLocaleString('en-US')} more characters not shown]`;
  }

  private cutOrNull(text: string | undefined | null): string | null {
    return text === undefined || text === null ? null : this.cut(text);
  }

  /** A copy of JSON-like data with every string cut, and at most 200 items per array. */
  private cutStrings(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.cut(value);
    if (depth > 12 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.slice(0, 200).map((item) => this.cutStrings(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.cutStrings(item, depth + 1)]));
  }
}

/** `sim-orchestrator @ strong`: who wrote the plan. */
function orchestratorLabel(episode: Episode): string {
  const { name, checkpoint } = episode.orchestrator;
  return checkpoint === undefined ? name : `${name} @ ${checkpoint}`;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every document id a search block's steps returned, first seen first. */
function searchDocumentIds(artifacts: NodeTrace['artifacts']): string[] {
  if (artifacts === undefined || artifacts.kind !== 'search' || !('steps' in artifacts) || !Array.isArray(artifacts.steps)) return [];
  const ids = new Set<string>();
  for (const step of artifacts.steps as { docIds?: unknown }[]) {
    if (Array.isArray(step.docIds)) for (const id of step.docIds) if (typeof id === 'string' && ids.size < 200) ids.add(id);
  }
  return [...ids];
}
