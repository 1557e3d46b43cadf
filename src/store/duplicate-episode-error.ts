import { UserError } from '../core/index.js';

/** An episode id or resume key (run, task, sample, orchestrator, checkpoint) that is already stored. */
export class DuplicateEpisodeError extends UserError {}
