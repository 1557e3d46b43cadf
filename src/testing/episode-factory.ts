import { addUsage, type BlockArtifacts, emptyUsage, type Episode, EPISODE_SCHEMA_VERSION, type LlmCallRecord, type NodeStatus, type NodeTrace, type OrchestratorRef, type Plan, Rng, stableId, type Task } from '../core/index.js';

/** Choices for a synthetic episode; everything else follows from `seed`. */
export interface EpisodeFactoryOptions {
  /** Drives call counts (SC samples, reflexion and debate rounds, search steps) and texts. @default 1 */
  seed?: number;
  /** @default derived from the seed */
  id?: string;
  runId?: string;
  /** @default one of five tasks chosen by the seed */
  task?: Task;
  /** @default 0 */
  sampleIndex?: number;
  /** @default { name: 'sim', checkpoint: 'step-0', step: 0 } */
  orchestrator?: OrchestratorRef;
  /** Grade of the final answer. @default true */
  correct?: boolean;
  /** Record prompt messages on every call. @default true */
  withMessages?: boolean;
}

/**
 * A complete, valid episode that uses every built-in artifact kind (search, cot, sc, reflexion,
 * debate), a user block with custom artifacts that failed, and a skipped node, with every call
 * recorded. Deterministic in its options; texts include non-ASCII characters. The plan exists to
 * exercise every stored field, not to pass the validator (the failed branch F -> G is a second sink).
 */
export function createRichEpisode(options: EpisodeFactoryOptions = {}): Episode {
  const { seed = 1, withMessages = true, correct = true } = options;
  const rng = new Rng(seed);
  const task = options.task ?? defaultTask(seed % 5);
  const calls = new CallFactory(rng, withMessages, task.question);
  const searchSteps = rng.int(1, 3);
  const scSamples = rng.int(1, 5);
  const reflexionRounds = rng.int(0, 3);
  const debateRoles = ['Economist', 'Analyst', 'Skeptic'].slice(0, rng.int(2, 3));
  const debateRounds = rng.int(1, 3);
  const answer = String(40 + (seed % 7));

  const nodes: NodeTrace[] = [
    node('A', 'search', task.question, { topK: 5, maxIterations: searchSteps }, calls.many(searchSteps + 1), {
      kind: 'search',
      steps: Array.from({ length: searchSteps }, (_, step) => ({
        query: `query ${step} über ${task.id}`,
        docIds: step === 0 ? [] : [`doc-${seed}-${step}`, `doc-${seed}-${step + 1}`],
        ...(step === 0 && { error: 'retriever timed out' }),
      })),
      documentsFound: searchSteps === 1 ? 0 : searchSteps,
    }, 'found 3 facts'),
    node('B', 'cot', 'Use: found 3 facts', { temperature: 0.5 }, calls.many(1), { kind: 'cot' }, answer),
    node('C', 'sc', task.question, { temperature: 0.7, samples: scSamples }, calls.many(scSamples), {
      kind: 'sc',
      samples: Array.from({ length: scSamples }, (_, sample) => (sample === 1 ? '' : answer)),
      votes: scSamples === 1 ? [{ answer, count: 1 }] : [{ answer, count: scSamples - 1 }, { answer: '', count: 1 }],
      winner: answer,
      voteShare: scSamples === 1 ? 1 : (scSamples - 1) / scSamples,
    }, answer),
    node('D', 'reflexion', task.question, { temperature: 0.5, maxRounds: 3 }, calls.many(1 + 2 * reflexionRounds), {
      kind: 'reflexion',
      initialAnswer: String(Number(answer) - 1),
      rounds: Array.from({ length: reflexionRounds }, (_, round) =>
        round === reflexionRounds - 1
          ? { critique: 'Looks right ✓', verdict: 'correct' as const }
          : { critique: `Step ${round} is off by one`, verdict: 'incorrect' as const, revisedAnswer: answer },
      ),
      ...(reflexionRounds > 0 && { acceptedAtRound: reflexionRounds - 1 }),
    }, answer),
    node('E', 'debate', `Decide from ${answer}, ${answer} and ${answer}`, { roles: debateRoles, rounds: debateRounds }, calls.many(debateRoles.length * debateRounds + 1), {
      kind: 'debate',
      roles: debateRoles,
      rounds: Array.from({ length: debateRounds }, () => ({ turns: debateRoles.map((role) => ({ role, answer })) })),
      finalAnswer: answer,
      converged: true,
    }, answer),
    {
      ...node('F', 'verifier', task.question, { strict: true, weights: [0.5, 0.5] }, calls.failed(), { kind: 'verifier', checks: 2, passed: false }),
      status: 'runtime_error' as NodeStatus,
      reason: 'verifier call failed after 3 attempts: HTTP 500',
      output: undefined,
      answer: undefined,
    },
    { ...node('G', 'cot', '', {}, [], undefined), status: 'skipped' as NodeStatus, reason: 'upstream F failed' },
  ].map((trace) => withoutUndefined(trace));

  const plan: Plan = {
    dom: 'high',
    thinking: 'Search first, then vote, reflect and debate.',
    nodes: nodes.map((trace) => ({ id: trace.nodeId, agent: trace.agent, input: PLAN_INPUTS[trace.nodeId] ?? '', params: trace.params })),
    edges: [{ from: 'A', to: 'B' }, { from: 'B', to: 'E' }, { from: 'C', to: 'E' }, { from: 'D', to: 'E' }, { from: 'F', to: 'G' }],
    answer: 'E',
  };
  const orchestratorCall = calls.orchestrator(JSON.stringify(plan));
  return {
    ...baseEpisode(options, seed, task, 'ok'),
    planText: orchestratorCall.response,
    planFormat: 'json',
    plan,
    warnings: [{ code: 'edge_without_wrapper', message: 'edge written without <edge>', path: 'edges[0]' }],
    orchestratorCall,
    nodes,
    finalAnswer: answer,
    grade: { correct, score: correct ? 1 : 0, method: 'math_equivalence' },
    usage: {
      orchestrator: orchestratorCall.usage,
      execution: addUsage(...nodes.map((trace) => trace.usage)),
      verification: { promptTokens: 12, completionTokens: 3, totalTokens: 15 },
    },
    wallTimeMs: 1234.5 + seed,
  };
}

const PLAN_INPUTS: Record<string, string> = { B: 'Use: ${A}', E: 'Decide from ${B}, ${C} and ${D}', G: 'Check ${F}' };

/** An episode whose plan text did not parse: no plan, no nodes, diagnostics and the raw text kept. */
export function createParseErrorEpisode(options: EpisodeFactoryOptions = {}): Episode {
  const { seed = 1, withMessages = true } = options;
  const task = options.task ?? defaultTask(seed % 5);
  const orchestratorCall = new CallFactory(new Rng(seed), withMessages, task.question).orchestrator('```json\n{"nodes": [{"id": "A", ');
  return {
    ...baseEpisode(options, seed, task, 'parse_error'),
    planText: orchestratorCall.response,
    planFormat: 'unknown',
    diagnostics: [{ code: 'json_syntax', message: 'unexpected end of JSON input', path: '' }],
    orchestratorCall,
    usage: { orchestrator: orchestratorCall.usage, execution: emptyUsage(), verification: emptyUsage() },
    wallTimeMs: 12,
    reason: 'plan text did not parse: unexpected end of JSON input',
  };
}

/** Number of LLM calls an episode records, the orchestrator call included. */
export function countEpisodeCalls(episode: Episode): number {
  return (episode.orchestratorCall ? 1 : 0) + episode.nodes.reduce((sum, trace) => sum + trace.calls.length, 0);
}

function baseEpisode(options: EpisodeFactoryOptions, seed: number, task: Task, status: Episode['status']) {
  const sampleIndex = options.sampleIndex ?? 0;
  return {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id: options.id ?? stableId('ep', seed, status, sampleIndex),
    ...(options.runId !== undefined && { runId: options.runId }),
    task,
    orchestrator: options.orchestrator ?? { name: 'sim', checkpoint: 'step-0', step: 0 },
    sampleIndex,
    seed,
    diagnostics: [],
    warnings: [],
    nodes: [],
    status,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seed % 60)).toISOString(),
  } satisfies Partial<Episode>;
}

function defaultTask(index: number): Task {
  return {
    id: `task-${index}`,
    suite: 'synthetic',
    question: `What is ${index} + 40? Answer with a number — ответ числом, 数字で.`,
    answer: String(index + 40),
    ...(index % 2 === 0 && { answerAliases: [`${index + 40}.0`] }),
    metadata: { difficulty: index, axes: { depth: 2 } },
  };
}

function node(
  nodeId: string,
  agent: string,
  input: string,
  params: Record<string, unknown>,
  calls: LlmCallRecord[],
  artifacts: BlockArtifacts | undefined,
  answer?: string,
): NodeTrace {
  return {
    nodeId,
    agent,
    input,
    params,
    status: 'ok',
    output: answer === undefined ? undefined : `Reasoning for ${nodeId}…\nAnswer: ${answer}`,
    answer,
    calls,
    artifacts,
    usage: addUsage(...calls.map((call) => call.usage)),
    startedAfterMs: nodeId.charCodeAt(0) - 65,
    latencyMs: 10.25 * calls.length,
  };
}

/** Drops keys whose value is undefined, as a stored-and-read episode has them. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** Makes call records with deterministic usage and texts. */
class CallFactory {
  private counter = 0;

  constructor(
    private readonly rng: Rng,
    private readonly withMessages: boolean,
    private readonly question: string,
  ) {}

  many(count: number): LlmCallRecord[] {
    return Array.from({ length: count }, (_, index) => this.call(index, 'execution', `Step ${this.counter}: the answer is ${this.rng.int(0, 99)}.`));
  }

  failed(): LlmCallRecord[] {
    return [{ ...this.call(0, 'execution', ''), attempts: 3, error: 'HTTP 500: upstream error' }];
  }

  orchestrator(response: string): LlmCallRecord {
    return { ...this.call(0, 'orchestrator', response), slot: 'orchestrator', model: 'sim-orchestrator', temperature: 1 };
  }

  private call(index: number, role: 'orchestrator' | 'execution', response: string): LlmCallRecord {
    this.counter += 1;
    const promptTokens = this.rng.int(20, 400);
    const completionTokens = this.rng.int(1, 200);
    return {
      index,
      role,
      slot: 'worker',
      model: 'sim-worker',
      ...(this.withMessages && {
        messages: [
          { role: 'system' as const, content: 'You are a careful solver.' },
          { role: 'user' as const, content: `${this.question}\n(call ${this.counter})` },
        ],
      }),
      requestHash: stableId('req', this.question, this.counter),
      response,
      usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
      usageSource: this.counter % 2 === 0 ? 'provider' : 'counted',
      latencyMs: this.rng.int(1, 500) / 4,
      attempts: 1,
      cached: this.counter % 3 === 0,
      temperature: 0.5,
      sampleIndex: index,
    };
  }
}
