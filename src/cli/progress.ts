import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, detail?: string): void;
  stop(): void;
}

/**
 * A progress bar on stderr. On a terminal it redraws in place; otherwise (CI, pipes) it prints
 * a line at each 10% so logs stay short.
 */
export function createProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta}s {detail}`, stream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { detail: '' });
    return {
      update: (done, detail = '') => bar.update(done, { detail }),
      stop: () => bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update(done, detail = '') {
      const decile = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        stream.write(`${label}: ${done}/${total}${detail ? ` ${detail}` : ''}\n`);
      }
    },
    stop() {},
  };
}
