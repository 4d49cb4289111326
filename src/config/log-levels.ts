import type { LogLevel } from '@nestjs/common';
import type { AppConfig } from './app-config';

const ORDER: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const UP_TO: Record<AppConfig['logLevel'], number> = { silent: -1, error: 1, warn: 2, info: 3, debug: 5 };

/** LOG_LEVEL as Nest's logger takes it: every level up to and including the one configured. */
export function nestLogLevels(level: AppConfig['logLevel']): LogLevel[] {
  return ORDER.slice(0, (UP_TO[level] ?? UP_TO.info) + 1);
}
