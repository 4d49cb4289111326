import { envInt, type Env } from '../config/env';

export interface ProgressOptions {
  /** Least time between two lines, and before the first: work shorter than this prints nothing. */
  readonly intervalMs: number;
  /** What is counted: `events` unless said otherwise. */
  readonly unit?: string;
  readonly write: (line: string) => void;
  readonly now?: () => number;
}

/**
 * Progress of long operator work (`projections:rebuild`, `wallet:replay` over a long history)
 * as plain lines on stderr, whether or not it is a terminal, so logs of scheduled runs show
 * it too; stdout keeps its one JSON line. At most one line per `intervalMs`.
 */
export class ProgressReporter {
  private readonly now: () => number;
  private readonly started: number;
  private lastLine: number;
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly options: ProgressOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.lastLine = this.started;
  }

  /** `events` processed so far; `detail` says where the work stands, e.g. a position. */
  update(events: number, detail?: string): void {
    const now = this.now();
    if (now - this.lastLine < this.options.intervalMs) return;
    this.lastLine = now;
    this.shown = true;
    this.options.write(this.line(events, now, detail));
  }

  /** A closing line with the totals, only after progress was shown: short work stays silent. */
  done(events: number): void {
    if (this.shown) this.options.write(this.line(events, this.now(), 'done'));
  }

  private line(events: number, now: number, detail: string | undefined): string {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? ` (${count(Math.round(events / seconds))}/s)` : '';
    const unit = this.options.unit ?? 'events';
    return `${this.label}: ${count(events)} ${unit} in ${seconds.toFixed(1)} s${rate}${detail ? `, ${detail}` : ''}\n`;
  }
}

/** How far along a log the work is: `position P of H (N%)`. */
export function positionDetail(position: bigint, head: bigint): string {
  const percent = head > 0n ? Number((position * 100n) / head) : 100;
  return `position ${position} of ${head} (${percent}%)`;
}

/** A reporter on this process's stderr, every `CLI_PROGRESS_MS` (default one second). */
export function stderrProgress(label: string, unit?: string, env: Env = process.env): ProgressReporter {
  return new ProgressReporter(label, {
    intervalMs: envInt(env, 'CLI_PROGRESS_MS', 1000),
    unit,
    write: (line) => process.stderr.write(line),
  });
}

const count = (n: number) => n.toLocaleString('en-US');
