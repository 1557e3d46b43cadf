import type { Episode, LlmCallRecord, NodeTrace, Usage } from '../../core/index.js';
import { formatArtifacts } from './format-artifacts.js';
import { formatPlanOutline } from './format-plan-outline.js';
import { DEFAULT_EXCERPT_CHARS, labelled } from './text-excerpt.js';

export interface TraceFormatOptions {
  /** Print prompts, responses and outputs in full instead of one-line excerpts. @default false */
  full?: boolean;
  /** Length of excerpts when not `full`. @default 160 */
  excerptChars?: number;
}

/**
 * A readable trace of one episode, top to bottom as it ran: task, who planned it, status, the
 * plan, diagnostics, the orchestrator call, then each node (agent, params, resolved input, every
 * call, artifacts, answer, tokens), and finally answer, grade, tokens by role and wall time.
 * @example console.log(formatEpisodeTrace(store.getEpisode(id)!, { full: true }));
 */
export function formatEpisodeTrace(episode: Episode, options: TraceFormatOptions = {}): string {
  const { full = false, excerptChars = DEFAULT_EXCERPT_CHARS } = options;
  const field = (label: string, value: string, indent: string) => labelled(label, value, full, excerptChars, indent);
  const { task, orchestrator } = episode;
  const lines: string[] = [
    `Episode ${episode.id}  [${episode.status}]${episode.reason === undefined ? '' : `  ${episode.reason}`}`,
    field(`  task:     ${task.id} (${task.suite})`, task.question, '    '),
  ];
  if (task.answer !== undefined) {
    lines.push(`  gold:     ${task.answer}${task.answerAliases?.length ? ` (also ${task.answerAliases.join(', ')})` : ''}`);
  }
  const checkpoint = orchestrator.checkpoint === undefined ? '' : ` checkpoint ${orchestrator.checkpoint}`;
  const step = orchestrator.step === undefined ? '' : ` (step ${orchestrator.step})`;
  lines.push(
    `  planner:  ${orchestrator.name}${checkpoint}${step}, sample ${episode.sampleIndex}${episode.seed === undefined ? '' : `, seed ${episode.seed}`}`,
  );
  if (episode.runId !== undefined) lines.push(`  run:      ${episode.runId}`);
  lines.push(`  created:  ${episode.createdAt}`, '');

  const { plan } = episode;
  const planHeader = `Plan (${episode.planFormat}`;
  if (plan === undefined) {
    lines.push(field(`${planHeader}, not parsed); plan text`, episode.planText, '    '));
  } else {
    lines.push(`${planHeader}, dom ${plan.dom}, ${plan.nodes.length} nodes, ${plan.edges.length} edges)`);
    lines.push(...formatPlanOutline(plan, excerptChars).map((line) => `  ${line}`));
    if (full) lines.push(field('  plan text', episode.planText, '    '));
  }
  lines.push(episode.diagnostics.length === 0 ? 'Diagnostics: none' : 'Diagnostics:');
  for (const diagnostic of episode.diagnostics) lines.push(`  - ${diagnostic.code} at ${diagnostic.path || '(root)'}: ${diagnostic.message}`);
  if (episode.warnings.length > 0) lines.push('Warnings:');
  for (const warning of episode.warnings) lines.push(`  - ${warning.code} at ${warning.path || '(root)'}: ${warning.message}`);
  if (episode.orchestratorCall !== undefined) {
    lines.push('', 'Orchestrator call:', ...formatCall(episode.orchestratorCall, '  ', full, excerptChars));
  }

  lines.push('', `Nodes (${episode.nodes.length}):`);
  for (const node of episode.nodes) lines.push(...formatNode(node, full, excerptChars), '');

  const { usage } = episode;
  const total = usage.orchestrator.totalTokens + usage.execution.totalTokens + usage.verification.totalTokens;
  lines.push(
    episode.finalAnswer === undefined ? 'Final answer: (none)' : field('Final answer', episode.finalAnswer, '  '),
    `Grade: ${episode.grade === undefined ? 'not graded' : `${episode.grade.correct ? 'correct' : 'incorrect'} (${episode.grade.method}${episode.grade.score === undefined ? '' : `, score ${episode.grade.score}`})`}`,
    `Tokens: orchestrator ${tokens(usage.orchestrator)} | execution ${tokens(usage.execution)} | verification ${tokens(usage.verification)} | total ${total}`,
    `Wall time: ${milliseconds(episode.wallTimeMs)}`,
  );
  return lines.join('\n');
}

function formatNode(node: NodeTrace, full: boolean, maxChars: number): string[] {
  const lines = [
    `[${node.nodeId}] ${node.agent}  ${node.status}${node.reason === undefined ? '' : ` (${node.reason})`}  tokens ${tokens(node.usage)}  ` +
      `started +${milliseconds(node.startedAfterMs)}, took ${milliseconds(node.latencyMs)}`,
    `  params: ${JSON.stringify(node.params)}`,
    labelled('  input', node.input, full, maxChars, '    '),
  ];
  lines.push(`  calls (${node.calls.length}):`);
  for (const call of node.calls) lines.push(...formatCall(call, '    ', full, maxChars));
  if (node.artifacts !== undefined) {
    const summary = formatArtifacts(node.artifacts, maxChars).map((line) => `    ${line}`);
    lines.push(`  artifacts (${node.artifacts.kind})${summary.length > 0 ? ':' : ''}`, ...summary);
  }
  if (node.output !== undefined) lines.push(labelled('  output', node.output, full, maxChars, '    '));
  lines.push(node.answer === undefined ? '  answer: (none)' : labelled('  answer', node.answer, full, maxChars, '    '));
  return lines;
}

function formatCall(call: LlmCallRecord, indent: string, full: boolean, maxChars: number): string[] {
  const extras = [
    call.temperature === undefined ? '' : `T=${call.temperature}`,
    call.sampleIndex === undefined ? '' : `sample ${call.sampleIndex}`,
  ].filter((part) => part !== '');
  const lines = [
    `${indent}#${call.index} ${call.role}/${call.slot} ${call.model}  tokens ${tokens(call.usage)} (${call.usageSource})  ` +
      `${milliseconds(call.latencyMs)}  attempts ${call.attempts}  cached ${call.cached ? 'yes' : 'no'}${extras.length > 0 ? `  ${extras.join(' ')}` : ''}`,
  ];
  const inner = `${indent}   `;
  if (full && call.messages !== undefined) {
    for (const message of call.messages) lines.push(labelled(`${inner}[${message.role}]`, message.content, true, maxChars, `${inner}  `));
  }
  if (call.error !== undefined) lines.push(`${inner}error: ${call.error}`);
  lines.push(labelled(`${inner}response`, call.response, full, maxChars, `${inner}  `));
  return lines;
}

/** `total (prompt+completion)`. */
function tokens(usage: Usage): string {
  return `${usage.totalTokens} (${usage.promptTokens}+${usage.completionTokens})`;
}

function milliseconds(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
}
