import { Injectable } from '@nestjs/common';
import { RecentlyUsed } from '../../shared/recently-used';
import type { Principal } from './queries/principal-by-api-key.query';

/**
 * The keys this process accepted lately, by key hash: every API request authenticates, and the
 * read-store look-up was a tenth of a small send's cost. Only accepted keys are held (an unknown
 * key is looked up each time, so guessing cannot fill the cache), for a second at most: a key
 * revoked in this process is forgotten by the revocation itself; one revoked by another process
 * (the CLI, a second server) stops working once this process's read model has the revocation and
 * the entry has aged out. Ages are wall time (not the injectable clock, which tests may stop).
 */
@Injectable()
export class RecentPrincipals {
  static readonly MAX_AGE_MS = 1000;
  private readonly held = new RecentlyUsed<string, { principal: Principal; at: number }>(10_000);

  find(keyHash: string): Principal | undefined {
    const entry = this.held.peek(keyHash);
    if (!entry) return undefined;
    if (Date.now() - entry.at < RecentPrincipals.MAX_AGE_MS) return entry.principal;
    this.held.delete(keyHash);
    return undefined;
  }

  remember(keyHash: string, principal: Principal): void {
    this.held.set(keyHash, { principal, at: Date.now() });
  }

  forget(keyHash: string): void {
    this.held.delete(keyHash);
  }
}
