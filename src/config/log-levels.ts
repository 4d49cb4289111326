import type { AppConfig } from './app-config';

/**
 * LOG_LEVEL as pino's threshold. `debug` also lets Nest's `verbose` lines through (written at
 * pino's `trace`), as it did with Nest's own logger.
 */
const THRESHOLDS: Record<AppConfig['logLevel'], string> = {
  silent: 'silent',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'trace',
};

export function pinoLevel(level: AppConfig['logLevel']): string {
  return THRESHOLDS[level] ?? THRESHOLDS.info;
}

/** Whether LOG_LEVEL lets `info` lines (the access log) through. */
export const logsInfo = (level: AppConfig['logLevel']): boolean =>
  ['info', 'debug', 'trace'].includes(pinoLevel(level));
