import { createHash } from 'node:crypto';
import { DomainError } from '../../shared/domain-error';
import { base62 } from '../../shared/ids';
import type { VerificationInput } from '../domain/verification-input';

/** API.md: an Idempotency-Key is kept 24 h, as for sends. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * The verification an Idempotency-Key names in one 24-hour period of the clock: derived from the
 * wallet, the key and the period, so the verification's own stream is the key's claim (its first
 * append is at no_stream: exactly one request with the key starts it). A key used again within 24 h
 * is in this period's id or the previous one's; one older than that is free again.
 */
export function keyedVerificationId(walletId: string, key: string, period: number): string {
  const digest = BigInt(`0x${sha256(`${walletId}\n${key}\n${period}`).toString('hex')}`);
  return `ver_${base62(period * KEY_TTL_MS, 8)}${base62(digest, 43).slice(-14)}`;
}

export const keyPeriodOf = (now: Date) => Math.floor(now.getTime() / KEY_TTL_MS);

/** The request as far as its Idempotency-Key is concerned: the create fields exactly as sent. */
export function requestHashOf(input: VerificationInput): string {
  const fields = [
    input.to ?? null,
    input.sender_id ?? null,
    input.message ?? null,
    input.code_length ?? null,
    input.expires_in ?? null,
    input.max_checks ?? null,
  ];
  return sha256(JSON.stringify(fields)).toString('hex');
}

export const keyReused = () =>
  new DomainError(
    'unprocessable',
    'idempotency_key_reused',
    'This Idempotency-Key was used with a different request body',
    'Idempotency-Key',
  );
