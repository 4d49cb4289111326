import type { DomainEvent } from '../../shared/decider';

/**
 * A key was used (`last_used_at`): recorded at most once a minute per key by each process, never
 * per request, on a stream of its own so the account's stream does not grow with traffic.
 */
export const API_KEY_USAGE_STREAM_PREFIX = 'api-key-usage-';
export const apiKeyUsageStream = (keyId: string) => `${API_KEY_USAGE_STREAM_PREFIX}${keyId}`;

export type ApiKeyUsed = DomainEvent<'ApiKeyUsed', { keyId: string; usedAt: string }>;
