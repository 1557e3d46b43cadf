import type { TokenRole, Usage } from './usage.js';

/**
 * The event stream: how long-running functions tell their caller what is happening. Each takes
 * an `events?: EventSink<ItsEvents>` option, where `ItsEvents` is a union of the core events
 * below and the stage's own typed events (`CollectEvent`, `RmTrainingEvent`, `GrpoEvent`, ...,
 * every one a `{ type: '...' }` object, noun first, lifecycles ending in `-end`). One sink typed
 * over a wider union (the CLI's) can be passed to all of them.
 *
 * Events are observations: a sink may ignore them, they are never awaited, and a run's result
 * does not depend on who listens. Callbacks whose work the run depends on are hooks and stay
 * callbacks: `onState` / `onEpochState` (write resume state), `onCheckpoint` (save a
 * checkpoint) are awaited where they are async, and their failure must stop the run.
 */

/** A stage advanced: `done` of `total` units (episodes, tasks, ...). Progress bars draw these. */
export interface ProgressEvent {
  type: 'progress';
  /** What advances, as a bar labels it: `bon`, `calibrate`, `reading episodes`. */
  stage: string;
  done: number;
  total: number;
  /** A short note to show beside the count. */
  detail?: string;
}

/** A line for people: narration (`info`) or something they should know about (`warn`). */
export interface LogEvent {
  type: 'log';
  level: 'info' | 'warn';
  /** Who says it: `demo`, `loop`, `provider`, `environment`. */
  source: string;
  message: string;
}

/** Tokens one model call spent, charged to a role. */
export interface UsageEvent {
  type: 'usage';
  role: TokenRole;
  usage: Usage;
}

/** The events every stage may emit. */
export type CoreEvent = ProgressEvent | LogEvent | UsageEvent;

/** Anything on the stream: every event has a `type`. */
export interface StreamEvent {
  readonly type: string;
}

/** Where events go. A sink typed over a wider union may be passed wherever a narrower one is asked for. */
export type EventSink<Event extends StreamEvent = CoreEvent> = (event: Event) => void;

/** A sink that drops every event (the default of every `events` option). */
export const ignoreEvents: EventSink<StreamEvent> = () => {};

/** One sink that hands each event to every one of `sinks`, in order. */
export function fanOutEvents<Event extends StreamEvent>(...sinks: readonly EventSink<Event>[]): EventSink<Event> {
  return (event) => {
    for (const sink of sinks) sink(event);
  };
}
