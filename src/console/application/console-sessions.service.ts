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
  /** The account the console shows (one person may belong to several and switch). */
  readonly accountId: string;
  /** The visitor as a member of that account. */
  readonly memberId: string;
  /** Who signed in: their login (its password) and e-mail, whichever account they are in. */
  readonly loginId: string;
  readonly email: string;
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
/**
 * The sessions of one login (a password reset: `-<loginId>`, whose streams before teams were
 * named after the account the login registered, as its id still is) or of one member of an account
 * (removed, or their role changed: `-<memberId>`), one event each time.
 */
const sessionsEndedStream = (scope: string) => `${ALL_SESSIONS_ENDED_STREAM}-${scope}`;

/** Who a session is for, as sign-in (or switching account) found them. */
export interface SessionMember {
  readonly accountId: string;
  readonly memberId: string;
  readonly loginId: string;
  readonly email: string;
}

/** Why sessions were ended, as recorded. */
export type SessionsEndedReason = 'operator' | 'password_reset' | 'member_removed' | 'role_changed';
export const sessionHandle = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');
const sessionStream = (handle: string) => `${SESSION_STREAM_PREFIX}${handle}`;

/** A sign-in (also the audit log's): who, into which account, from which address. */
export interface ConsoleSessionStarted {
  readonly type: 'ConsoleSessionStarted';
  readonly data: {
    accountId: string;
    /** Absent on sessions from before teams, which are no longer accepted. */
    memberId?: string;
    loginId?: string;
    email?: string;
    ip?: string | null;
    startedAt: string;
    expiresAt: string;
  };
}
interface EnvironmentChosen {
  readonly type: 'ConsoleEnvironmentChosen';
  readonly data: { environment: ConsoleEnvironment; chosenAt: string };
}
/** The visitor switched to another account they belong to (its TEST environment first). */
interface AccountChosen {
  readonly type: 'ConsoleAccountChosen';
  readonly data: { accountId: string; memberId: string; chosenAt: string };
}
interface SessionEnded {
  readonly type: 'ConsoleSessionEnded';
  readonly data: { endedAt: string; reason: 'signed_out' };
}
type SessionEvent = ConsoleSessionStarted | EnvironmentChosen | AccountChosen | SessionEnded;

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

  async start(member: SessionMember, ip: string | null): Promise<ConsoleSession> {
    const id = randomToken(SESSION_ID_LENGTH);
    const handle = sessionHandle(id);
    const now = this.clock.now();
    const data: ConsoleSessionStarted['data'] = {
      ...member,
      ip,
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
      ...member,
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
        case 'ConsoleSessionStarted': {
          const { memberId, loginId, email } = event.data;
          // A session from before teams names no member: sign in again.
          if (!memberId || !loginId || !email) return null;
          session = {
            id,
            handle,
            accountId: event.data.accountId,
            memberId,
            loginId,
            email,
            environment: 'TEST',
            startedAt: event.data.startedAt,
            expiresAt: event.data.expiresAt,
            revision: event.revision,
          };
          break;
        }
        case 'ConsoleAccountChosen':
          if (session !== null)
            session = {
              ...(session as ConsoleSession),
              accountId: event.data.accountId,
              memberId: event.data.memberId,
              environment: 'TEST',
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
    const live = session as ConsoleSession;
    if (Date.parse(live.startedAt) <= (await this.endedBefore(live))) return null;
    return live;
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
   * Ends every session started before `endedBefore` (default: now) of one login (its password was
   * reset: `scope` is the login's id) or of one member of an account (removed, or their role
   * changed: the member's id), on every process sharing the store.
   */
  async endAllOf(scope: string, reason: SessionsEndedReason, endedBefore = this.clock.now()): Promise<void> {
    await this.events.append(
      sessionsEndedStream(scope),
      [{ type: 'ConsoleSessionsEnded', data: { endedBefore: endedBefore.toISOString(), reason } }],
      'any',
    );
  }

  /** When the operator last ended every session, or the login's or the member's were (ms), or -Infinity. */
  private async endedBefore(session: ConsoleSession): Promise<number> {
    const newest = (stream: string) => this.events.readStream(stream, { direction: 'backwards', limit: 1 });
    const ended = await Promise.all([
      newest(ALL_SESSIONS_ENDED_STREAM),
      newest(sessionsEndedStream(session.loginId)),
      newest(sessionsEndedStream(session.memberId)),
    ]);
    const times = ended.flat().map((e) => Date.parse((e.data as { endedBefore: string }).endedBefore));
    return Math.max(-Infinity, ...times);
  }

  /** Moves the session to another account the visitor belongs to (the caller checked they do). */
  async chooseAccount(session: ConsoleSession, accountId: string, memberId: string): Promise<void> {
    if (session.accountId === accountId) return;
    await this.events.append(
      sessionStream(session.handle),
      [
        {
          type: 'ConsoleAccountChosen',
          data: { accountId, memberId, chosenAt: this.clock.now().toISOString() },
        },
      ],
      'stream_exists',
    );
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
