import { Injectable } from '@nestjs/common';
import { RecentlyUsed } from '../../shared/recently-used';

interface Submission {
  readonly messageId: string;
  /** Resolves true once the submit result (MessageSent, with these ids) is recorded. */
  readonly recorded: Promise<boolean>;
}

/** Long enough for the messages read model to map the ids too; by then this entry is not needed. */
const FORGET_AFTER_MS = 30_000;
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
    carrier: string,
    carrierMessageIds: readonly string[],
    messageId: string,
    recorded: Promise<boolean>,
  ): void {
    const submission: Submission = { messageId, recorded: recorded.catch(() => false) };
    const keys = carrierMessageIds.map((id) => key(carrier, id));
    for (const k of keys) this.byCarrierId.set(k, submission);
    void submission.recorded.then(() => {
      const timer = setTimeout(() => {
        for (const k of keys) if (this.byCarrierId.peek(k) === submission) this.byCarrierId.delete(k);
      }, FORGET_AFTER_MS);
      timer.unref?.();
    });
  }

  /** The message a receipt is for, once its submission is recorded; null when not known here. */
  async messageFor(carrier: string, candidates: readonly string[]): Promise<string | null> {
    for (const id of candidates) {
      const submission = this.byCarrierId.get(key(carrier, id));
      if (submission) return (await submission.recorded) ? submission.messageId : null;
    }
    return null;
  }
}

const key = (carrier: string, carrierMessageId: string) => `${carrier}:${carrierMessageId}`;
