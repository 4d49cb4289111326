import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { isIdOf } from '../../shared/ids';
import { batchStream, BatchSubmittedData } from '../domain/batch.events';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import {
  isAcceptedEventType,
  MessageQueuedData,
  MessageScheduledData,
  messageStream,
} from '../domain/message.events';
import type { Environment } from '../ports/carrier.port';
import { MESSAGES, MessageDoc, queuedDoc, sortKey } from '../projections/messages.projection';

/** Whose messages a read may see: one wallet (in its environment), or the sandbox try-out. */
export type ReadScope = { readonly walletId: string; readonly environment: Environment } | 'sandbox';

/**
 * The message read model as the queries (and an idempotent replay) read it. A message outside
 * the scope is answered exactly like an unknown one.
 *
 * A send answers from its own append without waiting for the read model, so a message the read
 * model does not have yet is looked up in the log: its MessageQueued (or MessageScheduled) alone. That state is never
 * older than one already shown (the read model, once it has the message, only moves it on).
 */
@Injectable()
export class MessageReader {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async find(id: unknown, scope: ReadScope): Promise<MessageDoc | null> {
    if (!isIdOf('msg', id)) return null;
    const doc = (await this.reads.get<MessageDoc>(MESSAGES, id)) ?? (await this.queuedInLog(id));
    if (!doc) return null;
    if (scope === 'sandbox') return doc.sandbox ? doc : null;
    return !doc.sandbox && doc.walletId === scope.walletId && doc.environment === scope.environment
      ? doc
      : null;
  }

  /** Newest first, after the document sorted at `afterSort`; one more than `limit` says whether more exist. */
  list(walletId: string, limit: number, afterSort?: string): Promise<MessageDoc[]> {
    return this.reads.list<MessageDoc>(MESSAGES, { partition: walletId, order: 'desc', limit, afterSort });
  }

  /** A batch send's record, read from the log (whoever's it is); null for an unknown batch. */
  async batch(batchId: unknown): Promise<BatchSubmittedData | null> {
    if (!isIdOf('bat', batchId)) return null;
    const [first] = await this.events.readStream(batchStream(batchId), { limit: 1 });
    return first?.type === 'BatchSubmitted' ? (first.data as BatchSubmittedData) : null;
  }

  /**
   * A batch's messages, newest first (last item first), after the message `startingAfter`: the
   * batch's record names them in order, so they are read by id (the read model, or the log until
   * the read model has them) and need no index of their own. Null when `startingAfter` is not one
   * of the batch's messages. One more than `limit` says whether more exist.
   */
  async listBatch(
    record: BatchSubmittedData,
    scope: ReadScope,
    limit: number,
    startingAfter?: string,
  ): Promise<MessageDoc[] | null> {
    const newestFirst = record.items
      .flatMap((item) => ('messageId' in item ? [item.messageId] : []))
      .reverse();
    const from = startingAfter === undefined ? 0 : newestFirst.indexOf(startingAfter) + 1;
    if (from === 0 && startingAfter !== undefined) return null;
    const docs = await Promise.all(newestFirst.slice(from, from + limit).map((id) => this.find(id, scope)));
    return docs.filter((doc): doc is MessageDoc => doc !== null);
  }

  private async queuedInLog(id: string): Promise<MessageDoc | null> {
    const [first] = await this.events.readStream(messageStream(id), { limit: 1 });
    if (!first || !isAcceptedEventType(first.type)) return null;
    const data = first.data as MessageQueuedData | MessageScheduledData;
    return queuedDoc(data, sortKey(data.createdAt, first.position), first.revision);
  }
}
