import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { UserError } from './errors.js';
import { sha256 } from './hash.js';

/** What every resume-state file carries beside its body: the kind of file and the run it belongs to. */
export interface ResumableStateHeader {
  format: string;
  key: string;
}

/** A file's header fields (unchecked) and its body, as `decode` reads them. */
export interface DecodedState<Extra> {
  format: unknown;
  key: unknown;
  /** What `schema` validates. */
  body: unknown;
  /** Anything else the file holds that `restore` needs (e.g. tensors). */
  extra: Extra;
}

/**
 * One kind of resume-state file: how it is named in messages, the format string it carries,
 * how its bytes are written and read, and the zod schema of its body.
 */
export interface ResumableStateSpec<State, Body, Extra = undefined> {
  /** What the file is called in messages, e.g. `GRPO state`. */
  label: string;
  format: string;
  /** How to fix a state of another run, after "was written ": e.g. `by a run with other flags; resume with the same flags`. */
  otherRun: string;
  schema: z.ZodType<Body>;
  /** The file's bytes; `header` must be stored so that `decode` gives it back. */
  encode(state: State, header: ResumableStateHeader): string | Uint8Array;
  /** Reads the bytes back; throws (any error) when they are not such a file. */
  decode(bytes: Buffer): DecodedState<Extra>;
  /** The state from a validated body; `context.unusable(why)` makes the error for what the schema cannot check. */
  restore(body: Body, extra: Extra, context: { path: string; unusable(why: string): UserError }): State;
}

/** Saves, loads and removes one kind of resume state; what `defineResumableState` returns. */
export interface ResumableState<State> {
  /** Writes atomically (temporary file, then rename): a kill leaves the old or the new state. */
  save(path: string, state: State, key: string): void;
  /** The state in `path`; undefined when there is none. Throws a UserError when it is unusable or belongs to another run. */
  load(path: string, key: string): State | undefined;
  /** Removes a state once its run is done; a missing file is fine. */
  remove(path: string): void;
}

/** Identifies a run: a digest of everything that decides its steps, so a state of another run is refused. */
export function resumableStateKey(parts: unknown): string {
  return sha256(JSON.stringify(parts));
}

/**
 * The one implementation of resume-state files (reward-model training, GRPO): key check,
 * atomic write, and a typed load that validates the body with zod.
 *
 * @example
 * const states = defineResumableState({ label: 'GRPO state', format: 'orchrm-grpo-state', otherRun: '...', schema, encode, decode, restore });
 * states.save(path, state, resumableStateKey(parts));
 */
export function defineResumableState<State, Body, Extra = undefined>(spec: ResumableStateSpec<State, Body, Extra>): ResumableState<State> {
  const unusable = (path: string, why: string, cause?: unknown) =>
    new UserError(`the ${spec.label} ${path} is not usable (${why}); delete it to train from scratch`, cause === undefined ? undefined : { cause });
  return {
    save(path, state, key) {
      const temporary = `${path}.tmp-${process.pid}`;
      writeFileSync(temporary, spec.encode(state, { format: spec.format, key }));
      renameSync(temporary, path);
    },
    load(path, key) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new UserError(`cannot read the ${spec.label} ${path} (${(error as Error).message}); delete it to train from scratch`, { cause: error });
      }
      let decoded: DecodedState<Extra>;
      try {
        decoded = spec.decode(bytes);
      } catch (error) {
        throw unusable(path, (error as Error).message, error);
      }
      if (decoded.format !== spec.format) throw unusable(path, `its format is ${typeof decoded.format === 'string' ? decoded.format : 'missing'}, not ${spec.format}`);
      if (decoded.key !== key) throw new UserError(`the ${spec.label} ${path} was written ${spec.otherRun}`);
      const parsed = spec.schema.safeParse(decoded.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw unusable(path, `its contents are malformed: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'unknown'}`);
      }
      return spec.restore(parsed.data, decoded.extra, { path, unusable: (why) => unusable(path, why) });
    },
    remove: removeResumableState,
  };
}

/** Removes a resume state once its run is done; a missing file is fine. */
export function removeResumableState(path: string): void {
  rmSync(path, { force: true });
}
