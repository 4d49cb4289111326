import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../shared/domain-error';
import { ListPage, page } from '../../shared/http/pagination';
import { isIdOf } from '../../shared/ids';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { WalletBalances } from '../../wallet/application/wallet-balances.query';
import type { Environment } from '../ports/carrier.port';
import { ApiMessage, MESSAGES, MessageDoc, toApiMessage } from '../projections/messages.projection';
import { SendContext, SendMessage } from './send-message.service';

/** Whose messages a read may see: one wallet (in its environment), or the sandbox try-out. */
export type ReadScope = { readonly walletId: string; readonly environment: Environment } | 'sandbox';

export interface Quote {
  readonly object: 'quote';
  readonly to: string;
  readonly carrier: string;
  readonly encoding: string;
  readonly segments: number;
  readonly credits: number;
  readonly sms_left: number;
  readonly sendable: boolean;
}

/** Reads of the message read model. A message outside the scope is answered exactly like an unknown one. */
@Injectable()
export class MessageQueries {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly balances: WalletBalances,
    private readonly sender: SendMessage,
  ) {}

  async find(id: unknown, scope: ReadScope): Promise<MessageDoc | null> {
    if (!isIdOf('msg', id)) return null;
    const doc = await this.reads.get<MessageDoc>(MESSAGES, id);
    if (!doc) return null;
    if (scope === 'sandbox') return doc.sandbox ? doc : null;
    return !doc.sandbox && doc.walletId === scope.walletId && doc.environment === scope.environment
      ? doc
      : null;
  }

  async get(id: unknown, scope: ReadScope): Promise<ApiMessage> {
    const doc = await this.find(id, scope);
    if (!doc) throw notFound('message', 'id');
    return toApiMessage(doc);
  }

  /** Newest first; `startingAfter` is the last id of the previous page. */
  async list(
    scope: { walletId: string; environment: Environment },
    limit: number,
    startingAfter?: string,
  ): Promise<ListPage<ApiMessage>> {
    let afterSort: string | undefined;
    if (startingAfter !== undefined && startingAfter !== '') {
      const cursor = await this.find(startingAfter, scope);
      if (!cursor) throw notFound('message', 'starting_after');
      afterSort = cursor.sort;
    }
    const docs = await this.reads.list<MessageDoc>(MESSAGES, {
      partition: scope.walletId,
      order: 'desc',
      limit: limit + 1,
      afterSort,
    });
    return page(docs.filter((d) => d.environment === scope.environment).map(toApiMessage), limit);
  }

  /** What a send would cost and whether the wallet covers it; validates like a send and touches nothing. */
  async quote(body: unknown, ctx: Extract<SendContext, { mode: 'wallet' }>): Promise<Quote> {
    const valid = await this.sender.validate(body, ctx);
    const wallet = await this.balances.get(ctx.walletId);
    const smsLeft = wallet?.smsLeft ?? 0;
    return {
      object: 'quote',
      to: valid.to,
      carrier: valid.carrier,
      encoding: valid.encoding,
      segments: valid.segments,
      credits: valid.credits,
      sms_left: smsLeft,
      sendable: smsLeft >= valid.credits,
    };
  }
}
