import { Injectable } from '@nestjs/common';

const FLASH_TTL_MS = 10 * 60 * 1000;

/**
 * One-time values handed from a POST to the GET it redirects to (POST-redirect-GET), such as
 * a freshly minted API key. Held in this process's memory only (a key is never written to
 * disk), keyed by the session, deleted on first read and after 10 minutes unread.
 */
@Injectable()
export class OneTimeFlash {
  private readonly values = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  put(sessionHandle: string, slot: string, value: unknown): void {
    this.sweep();
    this.values.set(`${sessionHandle}|${slot}`, { value, expiresAt: this.now() + FLASH_TTL_MS });
  }

  take<T>(sessionHandle: string, slot: string): T | null {
    const key = `${sessionHandle}|${slot}`;
    const found = this.values.get(key);
    this.values.delete(key);
    if (!found || found.expiresAt <= this.now()) return null;
    return found.value as T;
  }

  /** Forgets everything of a session (sign-out). */
  dropSession(sessionHandle: string): void {
    for (const key of this.values.keys()) if (key.startsWith(`${sessionHandle}|`)) this.values.delete(key);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key);
  }
}
