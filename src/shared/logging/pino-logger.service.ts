import type { LoggerService, LogLevel } from '@nestjs/common';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { AppConfig } from '../../config/app-config';
import { pinoLevel } from '../../config/log-levels';
import { currentRequestContext } from './request-context';

/**
 * Replaced by "[redacted]" wherever they appear in an object that is logged. Messages are
 * written so that no secret reaches them (test/security/log-secrets.e2e.ts); this is the net
 * under them for structured fields such as request headers.
 */
const REDACTED = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/**
 * The process's pino logger: one JSON object per line on stdout (`LOG_FORMAT=pretty`: coloured
 * text for a terminal), ISO times, the level by name, and the request id of the request being
 * served (`req_id`) on every line written while serving one (see request-context.ts).
 */
export function createPino(
  config: Pick<AppConfig, 'logLevel' | 'logFormat'>,
  /** Where the lines go: stdout unless given (a test passes its own). */
  destination?: NodeJS.WritableStream,
): Logger {
  return pino(
    {
      level: pinoLevel(config.logLevel),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A new object each time: pino merges the line's own fields into what mixin returns.
      mixin: () => {
        const context = currentRequestContext();
        return context ? { req_id: context.req_id } : {};
      },
      redact: { paths: REDACTED, censor: '[redacted]' },
    },
    config.logFormat === 'pretty'
      ? pretty(destination)
      : (destination ?? pino.destination({ dest: 1, sync: true })),
  );
}

/** LOG_FORMAT=pretty: `[12:00:00.123] INFO: [context] message (req_…)`, coloured on a terminal. */
function pretty(destination: NodeJS.WritableStream | undefined): DestinationStream {
  return pinoPretty({
    destination: destination ?? 1,
    sync: true,
    colorize: destination === undefined && process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req_id',
    messageFormat: '{if context}[{context}] {end}{msg}{if req_id} ({req_id}){end}',
  });
}

/** Nest's method names and pino's levels. */
const LEVELS: Record<LogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};
const MOST_VERBOSE_FIRST: readonly LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/**
 * Nest's logger interface over pino, so that every `new Logger('context')` in the code base and
 * Nest's own lines come out as JSON with `context`, `level` and `msg`. Nest passes the context
 * as the last argument and, for errors, the stack before it; an object message becomes fields.
 */
export class PinoLoggerService implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  setLogLevels(levels: LogLevel[]): void {
    const lowest = MOST_VERBOSE_FIRST.find((level) => levels.includes(level));
    this.pino.level = lowest ? LEVELS[lowest] : 'silent';
  }

  private write(method: LogLevel, message: unknown, params: unknown[]): void {
    const level = LEVELS[method];
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if ((method === 'error' || method === 'fatal') && rest.length > 0) {
      const stack = rest.shift();
      if (typeof stack === 'string') fields.stack = stack;
      else if (stack !== undefined) rest.unshift(stack);
    }
    if (rest.length > 0) fields.params = rest;
    let msg: string | undefined;
    if (message instanceof Error) {
      fields.err = message;
      msg = message.message;
    } else if (typeof message === 'object' && message !== null) {
      const { msg: text, ...more } = message as Record<string, unknown>;
      Object.assign(fields, more);
      msg = text === undefined ? undefined : String(text);
    } else {
      msg = String(message);
    }
    this.pino[level](fields, msg);
  }
}
