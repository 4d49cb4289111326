import { createHash } from 'node:crypto';
import { base62 } from '../../shared/ids';

/**
 * A member's id in one account, derived from the account and the member's e-mail: the owner of an
 * account registered before teams has one without any event saying so, and the audit log can
 * name the member behind a sign-in or a password reset from the e-mail alone.
 */
export function memberIdFor(accountId: string, email: string): string {
  const digest = createHash('sha256').update(`${accountId}\0${email}`, 'utf8').digest();
  return `mem_${base62(BigInt(`0x${digest.subarray(0, 16).toString('hex')}`), 22)}`;
}
