import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../shared/ids';
import type { Environment } from './account.events';

const PREFIX: Record<Environment, string> = { TEST: 'sms_test_', LIVE: 'sms_live_' };
/** 40 base62 characters: about 238 bits, well past API.md's 32-character floor. */
const SECRET_LENGTH = 40;
const KEY_SHAPE = /^sms_(test|live)_[0-9A-Za-z]{32,128}$/;

export interface NewApiKey {
  readonly key: string;
  readonly hash: string;
  readonly suffix: string;
}

export function generateApiKey(environment: Environment): NewApiKey {
  const key = PREFIX[environment] + randomToken(SECRET_LENGTH);
  return { key, hash: hashApiKey(key), suffix: key.slice(-4) };
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The environment a well-formed key belongs to, or null for anything that cannot be a key. */
export function environmentOfKey(key: string): Environment | null {
  const match = KEY_SHAPE.exec(key);
  if (!match) return null;
  return match[1] === 'test' ? 'TEST' : 'LIVE';
}

/** Compares two hex digests without leaking where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
