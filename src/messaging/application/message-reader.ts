import { Inject, Injectable } from '@nestjs/common';
import { isIdOf } from '../../shared/ids';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import type { Environment } from '../ports/carrier.port';
import { MESSAGES, MessageDoc } from '../projections/messages.projection';

/** Whose messages a read may see: one wallet (in its environment), or the sandbox try-out. */
export type ReadScope = { readonly walletId: string; readonly environment: Environment } | 'sandbox';

/**
 * The message read model as the queries (and an idempotent replay) read it. A message outside
 * the scope is answered exactly like an unknown one.
 */
@Injectable()
export class MessageReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  async find(id: unknown, scope: ReadScope): Promise<MessageDoc | null> {
    if (!isIdOf('msg', id)) return null;
    const doc = await this.reads.get<MessageDoc>(MESSAGES, id);
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
}
