import { tokenHash } from './commands/request-password-reset.handler';

const TOKEN_SHAPE = /^(acct_[0-9A-Za-z]{1,40})\.[0-9A-Za-z]{43}$/;

/** An invitation link's token: `<account id>.<secret>`, or null for anything that cannot be one. */
export function parseInvitationToken(token: unknown): { accountId: string; hash: string } | null {
  const shape = typeof token === 'string' ? TOKEN_SHAPE.exec(token) : null;
  return shape ? { accountId: shape[1], hash: tokenHash(token as string) } : null;
}
