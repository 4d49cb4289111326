import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../shared/clock';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { randomToken } from '../../shared/ids';

export type ConsoleEnvironment = 'TEST' | 'LIVE';

/** A signed-in console visitor, as the server remembers them. */
export interface ConsoleSession {
  /** The cookie value: a bearer secret, only ever held by the browser and this process's memory. */
  readonly id: string;
  /** SHA-256 of the id: the only form in which the id is written down. */
  readonly handle: string;
  readonly accountId: string;
  readonly environment: ConsoleEnvironment;
  readonly startedAt: string;
  readonly expiresAt: string;
  readonly revision: bigint;
}

/** 12 hours from sign-in, then sign in again. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** 256 bits of base62. */
const SESSION_ID_LENGTH = 43;
const SESSION_ID_SHAPE = /^[0-9A-Za-z]{43}$/;

export const SESSION_STREAM_PREFIX = 'console-session-';
/** The operator's "end every session started until now" (`sessions:end-all`), one event each time. */
export const ALL_SESSIONS_ENDED_STREAM = 'console-sessions-ended';
/** One account's "end every session" (a password reset), one event each time. */
const accountSessionsEndedStream = (accountId: string) => `${ALL_SESSIONS_ENDED_STREAM}-${accountId}`;
export const sessionHandle = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');
const sessionStream = (handle: string) => `${SESSION_STREAM_PREFIX}${handle}`;

interface SessionStarted {
  readonly type: 'ConsoleSessionStarted';
  readonly data: { accountId: string; startedAt: string; expiresAt: string };
}
interface EnvironmentChosen {
  readonly type: 'ConsoleEnvironmentChosen';
  readonly data: { environment: ConsoleEnvironment; chosenAt: string };
}
interface SessionEnded {
  readonly type: 'ConsoleSessionEnded';
  readonly data: { endedAt: string; reason: 'signed_out' };
}
type SessionEvent = SessionStarted | EnvironmentChosen | SessionEnded;

/**
 * Console sessions. The browser holds a random 256-bit id in an HttpOnly cookie; the server
 * keeps the session as a tiny event stream named after the id's SHA-256, so a copy of the
 * log cannot be replayed as cookies, and a session survives a restart and works on every
 * process sharing the store. No password, password hash or API key is ever part of it.
 * Signing out appends an end event: from then on the id is worthless everywhere. The operator
 * ends every session at once (a leaked cookie store, a departing employee) with `endAll`.
 */
@Injectable()
export class ConsoleSessions {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async start(accountId: string): Promise<ConsoleSession> {
    const id = randomToken(SESSION_ID_LENGTH);
    const handle = sessionHandle(id);
    const now = this.clock.now();
    const data = {
      accountId,
      startedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    };
    const appended = await this.events.append(
      sessionStream(handle),
      [{ type: 'ConsoleSessionStarted', data }],
      'no_stream',
    );
    return {
      id,
      handle,
      accountId,
      environment: 'TEST',
      startedAt: data.startedAt,
      expiresAt: data.expiresAt,
      revision: appended.nextExpectedRevision,
    };
  }

  /** The live session for a cookie value, or null (unknown, ended or expired). */
  async find(id: string | undefined): Promise<ConsoleSession | null> {
    if (!id || !SESSION_ID_SHAPE.test(id)) return null;
    const handle = sessionHandle(id);
    const recorded = await this.events.readStream(sessionStream(handle));
    let session: ConsoleSession | null = null;
    for (const event of recorded as unknown as ReadonlyArray<SessionEvent & { revision: bigint }>) {
      switch (event.type) {
        case 'ConsoleSessionStarted':
          session = {
            id,
            handle,
            accountId: event.data.accountId,
            environment: 'TEST',
            startedAt: event.data.startedAt,
            expiresAt: event.data.expiresAt,
            revision: event.revision,
          };
          break;
        case 'ConsoleEnvironmentChosen':
          if (session !== null)
            session = {
              ...(session as ConsoleSession),
              environment: event.data.environment,
              revision: event.revision,
            };
          break;
        case 'ConsoleSessionEnded':
          return null;
      }
    }
    if (!session || Date.parse(session.expiresAt) <= this.clock.now().getTime()) return null;
    if (Date.parse(session.startedAt) <= (await this.allEndedBefore(session.accountId))) return null;
    return session;
  }

  /** Ends every session started until now, on every process sharing the store. */
  async endAll(): Promise<{ endedBefore: string }> {
    const endedBefore = this.clock.now().toISOString();
    await this.events.append(
      ALL_SESSIONS_ENDED_STREAM,
      [{ type: 'ConsoleSessionsEnded', data: { endedBefore, reason: 'operator' } }],
      'any',
    );
    return { endedBefore };
  }

  /**
   * Ends every session of one account started until now (its password was reset), on every
   * process sharing the store.
   */
  async endAllOf(accountId: string): Promise<void> {
    await this.events.append(
      accountSessionsEndedStream(accountId),
      [
        {
          type: 'ConsoleSessionsEnded',
          data: { endedBefore: this.clock.now().toISOString(), reason: 'password_reset' },
        },
      ],
      'any',
    );
  }

  /** When the operator last ended every session, or the account's were (ms), or -Infinity. */
  private async allEndedBefore(accountId: string): Promise<number> {
    const [all, own] = await Promise.all([
      this.events.readStream(ALL_SESSIONS_ENDED_STREAM, { direction: 'backwards', limit: 1 }),
      this.events.readStream(accountSessionsEndedStream(accountId), { direction: 'backwards', limit: 1 }),
    ]);
    const times = [...all, ...own].map((e) => Date.parse((e.data as { endedBefore: string }).endedBefore));
    return Math.max(-Infinity, ...times);
  }

  async chooseEnvironment(session: ConsoleSession, environment: ConsoleEnvironment): Promise<void> {
    if (session.environment === environment) return;
    await this.events.append(
      sessionStream(session.handle),
      [{ type: 'ConsoleEnvironmentChosen', data: { environment, chosenAt: this.clock.now().toISOString() } }],
      'stream_exists',
    );
  }

  async end(session: ConsoleSession): Promise<void> {
    await this.events.append(
      sessionStream(session.handle),
      [
        {
          type: 'ConsoleSessionEnded',
          data: { endedAt: this.clock.now().toISOString(), reason: 'signed_out' },
        },
      ],
      'stream_exists',
    );
  }
}
