export { openStore, DEFAULT_MAX_STORED_TEXT_CHARS, type StoreOptions } from './open-store.js';
export { Store, type EpisodeKey } from './store.js';
export { DuplicateEpisodeError } from './duplicate-episode-error.js';
export type { EpisodeReadOptions } from './episode-reader.js';
export { EpisodeFilterSchema, EpisodeListOptionsSchema, type EpisodeFilter, type EpisodeListOptions } from './episode-filter.js';
export type { EpisodeSummary } from './episode-summary.js';
export { RunInputSchema, RunStatusSchema, type RunInput, type RunRecord, type RunStatus } from './run-store.js';
export { MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.js';
export { TRUNCATION_MARKER } from './truncate-text.js';
