import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';
import type { CoreEvent, EventSink, StreamEvent } from '../core/index.js';

export interface Progress {
  update(done: number, detail?: string): void;
  stop(): void;
}

export interface ProgressOptions {
  /** @default process.stderr */
  stream?: NodeJS.WriteStream;
  /** Off a terminal, also print a line when this long has passed since the last one. @default 30000 @unit milliseconds */
  intervalMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** Let the terminal bar show its own ETA; off when the detail carries one. @default true */
  barEta?: boolean;
}

/**
 * A progress bar on stderr. On a terminal it redraws in place; otherwise (CI, pipes) it prints
 * a line at each 10% and at least every 30 s, so logs stay short and a long run still shows life.
 */
export function createProgress(label: string, total: number, streamOrOptions: NodeJS.WriteStream | ProgressOptions = {}): Progress {
  const options: ProgressOptions = 'write' in streamOrOptions ? { stream: streamOrOptions as NodeJS.WriteStream } : streamOrOptions;
  const { stream = process.stderr, intervalMs = 30_000, now = Date.now, barEta = true } = options;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}%${barEta ? ' eta {eta_formatted}' : ''} {detail}`, stream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { detail: '' });
    return {
      update: (done, detail = '') => bar.update(done, { detail }),
      stop: () => bar.stop(),
    };
  }
  let lastDecile = -1;
  let lastLineAt = now();
  return {
    update(done, detail = '') {
      const decile = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (decile > lastDecile || now() - lastLineAt >= intervalMs) {
        lastDecile = Math.max(lastDecile, decile);
        lastLineAt = now();
        stream.write(`${label}: ${done}/${total}${detail ? ` ${detail}` : ''}\n`);
      }
    },
    stop() {},
  };
}

/** `4m05s`, `1h02m`, `12s`: a duration for progress lines. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** `950`, `12.3k`, `4.56M`: a token count for progress lines. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

export interface CliEventsOptions<Event extends StreamEvent> {
  /** Where log lines and command lines go. */
  stderr: Writable;
  /** The stages whose progress events are drawn, each as one bar (created on its first event); other stages' progress is not shown. */
  bars?: Readonly<Record<string, ProgressOptions>>;
  /** The line (without its newline) a command prints for one of its stage's own events; undefined prints nothing. */
  line?: (event: Event) => string | undefined;
}

/** The CLI's one consumer of the event stream, and `close` to stop its bars when the run ends. */
export interface CliEvents<Event extends StreamEvent> {
  sink: EventSink<Event | CoreEvent>;
  close(): void;
}

/**
 * The sink a command passes as `events`: progress of the stages in `bars` draws bars, log lines
 * print on stderr (a warning as `orchrm: <message>`), the command's own events print the line
 * `line` makes of them, and usage events are left to the summaries that count them.
 */
export function createCliEvents<Event extends StreamEvent>(options: CliEventsOptions<Event>): CliEvents<Event> {
  const bars = new Map<string, Progress>();
  const sink = (event: Event | CoreEvent): void => {
    const core = event as CoreEvent;
    if (core.type === 'progress') {
      const barOptions = options.bars?.[core.stage];
      if (barOptions === undefined) return;
      let bar = bars.get(core.stage);
      if (bar === undefined) {
        bar = createProgress(core.stage, core.total, barOptions);
        bars.set(core.stage, bar);
      }
      bar.update(core.done, core.detail);
      return;
    }
    if (core.type === 'log') {
      options.stderr.write(core.level === 'warn' ? `orchrm: ${core.message}\n` : `${core.message}\n`);
      return;
    }
    if (core.type === 'usage') return;
    const line = options.line?.(event as Event);
    if (line !== undefined) options.stderr.write(`${line}\n`);
  };
  return {
    sink,
    close() {
      for (const bar of bars.values()) bar.stop();
      bars.clear();
    },
  };
}
