import { Injectable } from '@nestjs/common';
import { RecentlyUsed } from '../../shared/recently-used';

/** A form sent again later than this acts again (a page left open overnight is a new intent). */
const REPLAY_TTL_MS = 60 * 60 * 1000;
/** About 200 bytes each: a bounded few MB however many forms are sent. */
const MAX_REMEMBERED = 10_000;

/**
 * Console forms safe to submit twice: the first submission of a form's one-time token acts and
 * its answer (where to go next) is remembered; a second submission with the same token, also
 * while the first is still running, gets the same answer without acting again. Only successes
 * are remembered: a refused form is shown again with a fresh token.
 *
 * Held in this process's memory, per session: enough for a double click or a resubmitted page.
 * Sends do not rely on it: their token is the API's Idempotency-Key, recorded in the event log.
 */
@Injectable()
export class FormReplays {
  private readonly answers = new RecentlyUsed<string, { at: number; answer: Promise<string> }>(
    MAX_REMEMBERED,
  );

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** `form` tells apart the forms of one page, which share its token (one per package on Buy credits). */
  once(sessionHandle: string, form: string, token: string, act: () => Promise<string>): Promise<string> {
    const key = `${sessionHandle}|${form}|${token}`;
    const seen = this.answers.get(key);
    if (seen && seen.at + REPLAY_TTL_MS > this.now()) return seen.answer;
    const answer = act();
    this.answers.set(key, { at: this.now(), answer });
    answer.catch(() => this.answers.delete(key));
    return answer;
  }
}
