/** Column values of the episode tables exactly as SQLite stores them (JSON columns are text). */

export interface TaskRow {
  id: string;
  suite: string;
  question: string;
  answer: string | null;
  aliases: string | null;
  metadata: string;
}

export interface EpisodeRow {
  id: string;
  run_id: string | null;
  task_id: string;
  task_snapshot: string | null;
  sample_index: number;
  orchestrator: string;
  checkpoint: string | null;
  checkpoint_step: number | null;
  seed: number | null;
  status: string;
  reason: string | null;
  plan_format: string;
  plan_text: string;
  plan: string | null;
  diagnostics: string;
  warnings: string;
  final_answer: string | null;
  correct: number | null;
  grade: string | null;
  orchestrator_prompt_tokens: number;
  orchestrator_completion_tokens: number;
  orchestrator_total_tokens: number;
  execution_prompt_tokens: number;
  execution_completion_tokens: number;
  execution_total_tokens: number;
  verification_prompt_tokens: number;
  verification_completion_tokens: number;
  verification_total_tokens: number;
  wall_time_ms: number;
  created_at: string;
}

export interface NodeTraceRow {
  episode_id: string;
  position: number;
  node_id: string;
  agent: string;
  input: string;
  params: string;
  status: string;
  reason: string | null;
  output: string | null;
  answer: string | null;
  artifacts: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  started_after_ms: number;
  latency_ms: number;
}

export interface LlmCallRow {
  episode_id: string;
  node_position: number | null;
  position: number;
  call_index: number;
  role: string;
  slot: string;
  model: string;
  messages: string | null;
  request_hash: string;
  response: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  usage_source: string;
  latency_ms: number;
  attempts: number;
  cached: number;
  temperature: number | null;
  sample_index: number | null;
  error: string | null;
  attempt_errors: string | null;
  reasoning: string | null;
}
