import { Inject, Injectable } from '@nestjs/common';
import { AccountReader } from '../../accounts/application/account-reader';
import { notFound } from '../../shared/domain-error';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import {
  COMPLIANCE_PROJECTION,
  INBOUND_MESSAGES,
  InboundDoc,
  OPT_OUTS,
  OptOutDoc,
  optOutKey,
  SENDER_IDS,
  SenderIdDoc,
  senderIdSort,
} from '../projections/compliance.projection';

const PAGE = 500;

/** The compliance read models, read once they have caught up with the log (a list shows what was just answered). */
@Injectable()
export class ComplianceReader {
  constructor(
    @Inject(READ_STORE) readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    private readonly accounts: AccountReader,
  ) {}

  caughtUp(): Promise<void> {
    return this.projections.catchUp([COMPLIANCE_PROJECTION]);
  }

  waitFor(position: bigint | null): Promise<void> {
    return this.projections.waitFor(position, [COMPLIANCE_PROJECTION]);
  }

  /** A page of a partition newest first, after the cursor document's sort key (404 for an unknown cursor). */
  async inboundPage(partition: string, limit: number, startingAfter?: string): Promise<InboundDoc[]> {
    await this.caughtUp();
    let afterSort: string | undefined;
    if (startingAfter) {
      const cursor = await this.reads.get<InboundDoc>(INBOUND_MESSAGES, startingAfter);
      if (!cursor || (cursor.data.walletId ?? 'unassigned') !== partition)
        throw notFound('inbound message', 'starting_after');
      afterSort = cursor.sort;
    }
    return this.reads.list<InboundDoc>(INBOUND_MESSAGES, { partition, order: 'desc', limit, afterSort });
  }

  async optOutPage(walletId: string, limit: number, startingAfter?: string): Promise<OptOutDoc[]> {
    await this.caughtUp();
    let afterSort: string | undefined;
    if (startingAfter) {
      const cursor = await this.reads.get<OptOutDoc>(OPT_OUTS, optOutKey(walletId, startingAfter));
      if (!cursor) throw notFound('opt-out', 'starting_after');
      afterSort = cursor.sort;
    }
    return this.reads.list<OptOutDoc>(OPT_OUTS, { partition: walletId, order: 'desc', limit, afterSort });
  }

  /** How many of the account's sender IDs other than `except` wait for review (read models caught up first). */
  async pendingSenderIds(accountId: string, except: string): Promise<number> {
    await this.caughtUp();
    let pending = 0;
    let afterSort: string | undefined;
    for (;;) {
      const docs = await this.reads.list<SenderIdDoc>(SENDER_IDS, {
        partition: accountId,
        order: 'asc',
        limit: PAGE,
        afterSort,
      });
      pending += docs.filter((doc) => doc.status === 'pending' && doc.senderId !== except).length;
      if (docs.length < PAGE) return pending;
      afterSort = senderIdSort(docs[docs.length - 1]);
    }
  }

  /** The account an operator names by email; 404 `resource_missing` (param email) when none. */
  async accountByEmail(email: string) {
    const account = await this.accounts.registeredBy(email);
    if (!account) throw notFound('account with this email', 'email');
    return account;
  }

  async emailOf(accountId: string): Promise<string | null> {
    return (await this.accounts.byId(accountId))?.email ?? null;
  }
}
