import type { Environment } from '../ports/carrier.port';

/** A message with no final report within this long ends EXPIRED (API.md: 48 h, TEST 10 min). */
export const VALIDITY_MS: Readonly<Record<Environment, number>> = {
  LIVE: 48 * 60 * 60 * 1000,
  TEST: 10 * 60 * 1000,
};

export const validUntilFor = (environment: Environment, createdAt: Date): string =>
  new Date(createdAt.getTime() + VALIDITY_MS[environment]).toISOString();
