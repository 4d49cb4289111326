import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { recipientOptedOut, senderIdNotApproved } from '../domain/compliance-refusals';
import { optOutStream, senderIdStream } from '../domain/compliance.events';

/** The wallet a send is for, as the send path knows it. */
export interface GateContext {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: 'TEST' | 'LIVE';
}

/**
 * What the send path asks before it reserves anything (docs/performance.md: the send path is
 * hot). Each answer is one indexed read of the newest event of one small stream, so it is as
 * fresh as the log (an approval or an opt-out counts from the next send, whatever process
 * recorded it) and costs nothing on the common path: the sender ID is read for LIVE sends
 * only, the opt-out list for promotional sends only.
 */
@Injectable()
export class ComplianceGate {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  /** `sender_id_not_approved` for a LIVE send whose sender ID is not approved for the account. */
  async senderIdRefusal(ctx: GateContext, senderId: string): Promise<DomainError | null> {
    if (ctx.environment !== 'LIVE') return null;
    const approved = (await this.newestType(senderIdStream(ctx.accountId, senderId))) === 'SenderIdApproved';
    return approved ? null : senderIdNotApproved(senderId);
  }

  /** `recipient_opted_out` for a promotional send to a number on the wallet's opt-out list. */
  async recipientRefusal(ctx: GateContext, to: string, type: string): Promise<DomainError | null> {
    if (type !== 'promotional') return null;
    const optedOut = (await this.newestType(optOutStream(ctx.walletId, to))) === 'RecipientOptedOut';
    return optedOut ? recipientOptedOut(to) : null;
  }

  /** The numbers among these that are on the wallet's opt-out list now (one small read each). */
  async optedOut(walletId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>> {
    const unique = [...new Set(phoneNumbers)];
    const newest = await Promise.all(unique.map((n) => this.newestType(optOutStream(walletId, n))));
    return new Set(unique.filter((_, i) => newest[i] === 'RecipientOptedOut'));
  }

  private async newestType(streamId: string): Promise<string | null> {
    const [newest] = await this.events.readStream(streamId, { direction: 'backwards', limit: 1 });
    return newest?.type ?? null;
  }
}
