import { type SqliteDatabase, UserError } from '../core/index.js';

/** One schema step. `sql` runs inside a transaction together with the version bump. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The schema history, oldest first. Never edit a released migration: append a new one, and keep a
 * fixture database of the old version in `test-fixtures/` so opening it stays tested.
 * Tables are STRICT so a wrong type is refused at write time instead of read back silently.
 * JSON columns hold text validated by zod on the way in and out.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  kind TEXT NOT NULL,
  config TEXT NOT NULL,
  seed INTEGER,
  code_version TEXT,
  status TEXT NOT NULL
) STRICT;

CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  question TEXT NOT NULL,
  answer TEXT,
  aliases TEXT,
  metadata TEXT NOT NULL
) STRICT;

CREATE TABLE episodes (
  id TEXT PRIMARY KEY,
  run_id TEXT REFERENCES runs(id),
  task_id TEXT NOT NULL REFERENCES tasks(id),
  -- The episode's own copy of its task, kept only when it differs from the tasks row.
  task_snapshot TEXT,
  sample_index INTEGER NOT NULL,
  orchestrator TEXT NOT NULL,
  checkpoint TEXT,
  checkpoint_step INTEGER,
  seed INTEGER,
  status TEXT NOT NULL,
  reason TEXT,
  plan_format TEXT NOT NULL,
  plan_text TEXT NOT NULL,
  plan TEXT,
  diagnostics TEXT NOT NULL,
  warnings TEXT NOT NULL,
  final_answer TEXT,
  correct INTEGER,
  grade TEXT,
  orchestrator_prompt_tokens INTEGER NOT NULL,
  orchestrator_completion_tokens INTEGER NOT NULL,
  orchestrator_total_tokens INTEGER NOT NULL,
  execution_prompt_tokens INTEGER NOT NULL,
  execution_completion_tokens INTEGER NOT NULL,
  execution_total_tokens INTEGER NOT NULL,
  verification_prompt_tokens INTEGER NOT NULL,
  verification_completion_tokens INTEGER NOT NULL,
  verification_total_tokens INTEGER NOT NULL,
  wall_time_ms REAL NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
-- The resume key. NULL never equals NULL in SQL, so an absent checkpoint is mapped to an empty
-- blob, which no text value equals. Episodes outside a run have no resume key.
CREATE UNIQUE INDEX episodes_resume_key ON episodes
  (run_id, task_id, sample_index, orchestrator, ifnull(checkpoint, x''))
  WHERE run_id IS NOT NULL;
CREATE INDEX episodes_task ON episodes (task_id);
CREATE INDEX episodes_run ON episodes (run_id);

CREATE TABLE node_traces (
  episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  node_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  input TEXT NOT NULL,
  params TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  output TEXT,
  answer TEXT,
  artifacts TEXT,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  total_tokens INTEGER NOT NULL,
  started_after_ms REAL NOT NULL,
  latency_ms REAL NOT NULL,
  PRIMARY KEY (episode_id, position)
) STRICT;

CREATE TABLE llm_calls (
  episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
  -- NULL for the orchestrator call that wrote the plan.
  node_position INTEGER,
  -- Order of the call in its node's list (call_index is the record's own index field).
  position INTEGER NOT NULL,
  call_index INTEGER NOT NULL,
  role TEXT NOT NULL,
  slot TEXT NOT NULL,
  model TEXT NOT NULL,
  -- Full prompt as JSON; NULL unless the store keeps prompts.
  messages TEXT,
  request_hash TEXT NOT NULL,
  response TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  total_tokens INTEGER NOT NULL,
  usage_source TEXT NOT NULL,
  latency_ms REAL NOT NULL,
  attempts INTEGER NOT NULL,
  cached INTEGER NOT NULL,
  temperature REAL,
  sample_index INTEGER,
  error TEXT
) STRICT;
CREATE INDEX llm_calls_episode ON llm_calls (episode_id, node_position, position);

CREATE TABLE pairs (
  id TEXT PRIMARY KEY,
  dataset_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  source TEXT NOT NULL,
  winner_episode_id TEXT REFERENCES episodes(id),
  loser_episode_id TEXT REFERENCES episodes(id),
  winner_text TEXT,
  loser_text TEXT,
  weight REAL NOT NULL DEFAULT 1,
  margin REAL,
  evidence TEXT NOT NULL DEFAULT '{}',
  split TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX pairs_split ON pairs (dataset_id, split);
CREATE INDEX pairs_task ON pairs (task_id);

CREATE TABLE models (
  id TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE results (
  id TEXT PRIMARY KEY,
  run_id TEXT REFERENCES runs(id),
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX results_run ON results (run_id, kind);
CREATE INDEX results_kind ON results (kind);

CREATE TABLE checkpoints (
  id TEXT PRIMARY KEY,
  orchestrator TEXT NOT NULL,
  step INTEGER NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX checkpoints_orchestrator_step ON checkpoints (orchestrator, step);
`,
  },
  {
    version: 2,
    name: 'pair questions and pair datasets',
    sql: `
-- The task text each pair is read with; imported pairs have no task or episode rows to join.
ALTER TABLE pairs ADD COLUMN question TEXT NOT NULL DEFAULT '';

-- How each pair dataset was made (mining configuration with its rubric, or import origin) and
-- what the miners reported, so a dataset can be reproduced and its skips explained.
CREATE TABLE pair_datasets (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  config TEXT NOT NULL,
  report TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
`,
  },
  {
    version: 3,
    name: 'attempt errors of retried calls',
    sql: `
-- JSON list of why each retried attempt failed (429, timeout, truncated body...), NULL when none did.
ALTER TABLE llm_calls ADD COLUMN attempt_errors TEXT;
`,
  },
  {
    version: 4,
    name: 'reasoning of reasoning models',
    sql: `
-- The model's reasoning (a reasoning field of the reply, or <think> taken out of its content), NULL when it gave none.
ALTER TABLE llm_calls ADD COLUMN reasoning TEXT;
`,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, migration) => Math.max(max, migration.version), 0);

/** Reads the schema version from the database header (`PRAGMA user_version`). */
export function readSchemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to SCHEMA_VERSION. Each migration and its version bump commit together,
 * so a crash mid-migration leaves the previous version intact and the next open retries it.
 * A database newer than this code is refused rather than written with an older idea of the schema.
 */
export function migrate(db: SqliteDatabase, path: string, migrations: readonly Migration[] = MIGRATIONS): number {
  assertNotNewer(readSchemaVersion(db), path);
  for (const migration of migrations) {
    if (migration.version <= readSchemaVersion(db)) continue;
    db.transaction(() => {
      // Re-read under the write lock: another process may have migrated while we waited for it.
      if (migration.version <= readSchemaVersion(db)) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  const version = readSchemaVersion(db);
  assertNotNewer(version, path);
  return version;
}

/** Throws the clear error for a database written by a newer orchrm. */
export function assertNotNewer(version: number, path: string): void {
  if (version > SCHEMA_VERSION) {
    throw new UserError(
      `database ${path} has schema version ${version}, newer than this orchrm understands (${SCHEMA_VERSION}); ` +
        'upgrade orchrm, or use a database written by this version',
    );
  }
}
