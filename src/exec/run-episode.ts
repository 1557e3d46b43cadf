import { addUsage, type Dom, emptyUsage, type Episode, EPISODE_SCHEMA_VERSION, type Grader, type LlmCallRecord, type OrchestratorRef, splitGradeUsage, stableId } from '../core/index.js';
import { isServerFailure } from '../llm/index.js';
import { parsePlan } from '../plan/index.js';
import { executePlan, type ExecutePlanOptions } from './execute-plan.js';
import { errorMessage } from './node-chat.js';

export interface RunEpisodeOptions extends Omit<ExecutePlanOptions, 'plan'> {
  /** The orchestrator's raw output; kept verbatim in the episode. */
  planText: string;
  /** @default 'auto' */
  planFormat?: 'auto' | 'json' | 'xml';
  /** DoM the orchestrator was asked for; a plan outside it is invalid. */
  dom?: Dom;
  orchestrator: OrchestratorRef;
  /** The call that wrote the plan, when a model wrote it. */
  orchestratorCall?: LlmCallRecord;
  sampleIndex: number;
  runId?: string;
  /** @default a stable id from seed, task, sample and orchestrator */
  id?: string;
  /** Grades the final answer when the task has a gold answer. */
  grader?: Grader;
  /** Injectable clock for createdAt. @default () => new Date() */
  now?: () => Date;
}

/**
 * Parses, validates and executes one plan and returns the complete Episode. Never throws on
 * anything a model did: unparseable text is `parse_error`, an invalid graph `invalid_plan`,
 * failures during execution the matching status, always with the reason kept. A call that the
 * server failed after its retries (`isServerFailure`) makes the episode `server_error`, ungraded.
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<Episode> {
  const startedAt = performance.now();
  const { task, orchestrator, sampleIndex } = options;
  const parsed = parsePlan(options.planText, {
    format: options.planFormat ?? 'auto',
    catalog: options.blocks,
    ...(options.dom !== undefined && { dom: options.dom }),
  });
  const episode: Episode = {
    schemaVersion: EPISODE_SCHEMA_VERSION,
    id:
      options.id ??
      stableId('ep', options.seed, task.id, sampleIndex, orchestrator.name, orchestrator.checkpoint ?? ''),
    ...(options.runId !== undefined && { runId: options.runId }),
    task,
    orchestrator,
    sampleIndex,
    seed: options.seed,
    planText: options.planText,
    planFormat: parsed.format,
    diagnostics: parsed.ok ? [] : parsed.diagnostics,
    warnings: parsed.warnings,
    ...(options.orchestratorCall !== undefined && { orchestratorCall: options.orchestratorCall }),
    nodes: [],
    usage: {
      orchestrator: options.orchestratorCall?.usage ?? emptyUsage(),
      execution: emptyUsage(),
      verification: emptyUsage(),
    },
    wallTimeMs: 0,
    status: 'ok',
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
  };

  if (!parsed.ok) {
    const unparsed = parsed.diagnostics.some((diagnostic) => PARSE_CODES.has(diagnostic.code));
    episode.status = unparsed ? 'parse_error' : 'invalid_plan';
    episode.reason = parsed.diagnostics.map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`).join('; ');
  } else {
    episode.plan = parsed.plan;
    const execution = await executePlan({ ...options, plan: parsed.plan });
    episode.nodes = execution.nodes;
    episode.usage.execution = addUsage(...execution.nodes.map((node) => node.usage));
    episode.status = execution.status;
    if (execution.reason !== undefined) episode.reason = execution.reason;
    if (execution.finalAnswer !== undefined) episode.finalAnswer = execution.finalAnswer;
  }

  if (episode.finalAnswer !== undefined && options.grader) {
    try {
      const graded = await options.grader(task, episode.finalAnswer);
      if (graded) {
        const { grade, usage } = splitGradeUsage(graded);
        episode.grade = grade;
        episode.usage.verification = addUsage(episode.usage.verification, usage);
      }
    } catch (error) {
      // A judge the server failed graded nothing: the episode is redone, not kept ungraded.
      if (isServerFailure(error)) episode.status = 'server_error';
      episode.reason = `${episode.reason ? `${episode.reason}; ` : ''}grading failed: ${errorMessage(error)}`;
    }
  } else if (episode.finalAnswer === undefined && task.answer !== undefined && options.grader && episode.status !== 'server_error') {
    // No answer reached: graded wrong, so outcome pairs can use failed episodes too.
    episode.grade = { correct: false, method: 'no_answer' };
  }
  episode.wallTimeMs = performance.now() - startedAt;
  return episode;
}

/** Diagnostic codes meaning the text held no readable plan (as opposed to an invalid one). */
const PARSE_CODES = new Set(['empty_output', 'no_plan_found', 'json_syntax', 'xml_syntax', 'schema', 'unbalanced_edge', 'too_large', 'internal_error']);
