import { Injectable } from '@nestjs/common';
import { RecentlyUsed } from '../../shared/recently-used';
import type { Environment } from '../ports/carrier.port';

interface Submission {
  readonly messageId: string;
  /** Resolves true once the submit result (MessageSent, with these ids) is recorded. */
  readonly recorded: Promise<boolean>;
}

/**
 * The newest submissions kept (a few MB). Receipts come within moments, and an older id is
 * still found through the read model, so nothing needs forgetting sooner than the bound does.
 */
const MAX_ENTRIES = 50_000;

/**
 * The carrier message ids this process was just given, while their MessageSent is being
 * recorded. A fast carrier's receipt usually arrives before that (the TEST simulator's at once):
 * matched here, it waits for the recording instead of polling the read model for an id that is
 * not there yet. Receipts for messages submitted by another process still go to the read model.
 */
@Injectable()
export class RecentSubmissions {
  private readonly byCarrierId = new RecentlyUsed<string, Submission>(MAX_ENTRIES);

  remember(
    environment: Environment,
    carrier: string,
    carrierMessageIds: readonly string[],
    messageId: string,
    recorded: Promise<boolean>,
  ): void {
    const submission: Submission = { messageId, recorded: recorded.catch(() => false) };
    for (const id of carrierMessageIds) this.byCarrierId.set(key(environment, carrier, id), submission);
  }

  /**
   * The message a receipt is for, once its submission is recorded; null when not known here. Only
   * a submission on the receipt's own connection (carrier and environment) is one it can be for.
   */
  async messageFor(
    environment: Environment,
    carrier: string,
    candidates: readonly string[],
  ): Promise<string | null> {
    for (const id of candidates) {
      const submission = this.byCarrierId.get(key(environment, carrier, id));
      if (submission) return (await submission.recorded) ? submission.messageId : null;
    }
    return null;
  }
}

const key = (environment: Environment, carrier: string, carrierMessageId: string) =>
  `${environment}:${carrier}:${carrierMessageId}`;
