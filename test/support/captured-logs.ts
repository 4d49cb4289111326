import type { LoggerService } from '@nestjs/common';

export interface LogEntry {
  readonly level: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** The logger's context (`http`, `dispatcher`…), when it has one. */
  readonly context: string | undefined;
  readonly message: string;
  /** Everything else the line carried (a stack, an error), as text. */
  readonly details: string;
}

/**
 * The log lines of a test app, kept instead of printed: a suite that causes errors on purpose
 * (store faults, a refused mail, a failing read) asserts them rather than filling a green run
 * with red stack traces. Pass one to startTestApp({ logs }).
 *
 * Nest's Logger is one per test file: the app started last decides where every app's lines go,
 * so start the capturing app after any other app of the file that is still running.
 */
export class CapturedLogs implements LoggerService {
  readonly entries: LogEntry[] = [];

  fatal(message: unknown, ...rest: unknown[]) {
    this.keep('fatal', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.keep('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.keep('warn', message, rest);
  }
  log(message: unknown, ...rest: unknown[]) {
    this.keep('log', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.keep('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.keep('verbose', message, rest);
  }

  /** The error and fatal lines, each as one text (context, message and details). */
  errors(): string[] {
    return this.entries
      .filter((e) => e.level === 'error' || e.level === 'fatal')
      .map((e) => [e.context && `[${e.context}]`, e.message, e.details].filter(Boolean).join(' '));
  }

  /** The error lines none of `expected` matches: what a test that causes errors must find empty. */
  unexpectedErrors(...expected: readonly RegExp[]): string[] {
    return this.errors().filter((line) => !expected.some((pattern) => pattern.test(line)));
  }

  clear(): void {
    this.entries.length = 0;
  }

  private keep(level: LogEntry['level'], message: unknown, rest: unknown[]) {
    // Nest's Logger passes its context last, after the stack (error) or any other parameters.
    const context = typeof rest.at(-1) === 'string' && rest.length > 0 ? (rest.pop() as string) : undefined;
    this.entries.push({ level, context, message: text(message), details: rest.map(text).join(' ') });
  }
}

function text(value: unknown): string {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
