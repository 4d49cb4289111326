import { Inject, Injectable } from '@nestjs/common';
import { ComplianceGate } from '../../compliance/application/compliance-gate.service';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid } from '../../shared/domain-error';
import { RateLimiter } from '../../shared/http/rate-limiter';
import {
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  StreamAppend,
} from '../../shared/event-store/event-store.port';
import { newId } from '../../shared/ids';
import { err } from '../../shared/result';
import { WalletService } from '../../wallet/application/wallet.service';
import {
  atItem,
  BatchInput,
  BatchItemCheck,
  validateBatchItem,
  validateBatchShared,
} from '../domain/batch-input';
import { BatchItemRecord, batchMessageId, batchStream, BatchSubmittedData } from '../domain/batch.events';
import type { MessageQueuedData } from '../domain/message.events';
import { ApiMessage, queuedDoc, toApiMessage } from '../projections/messages.projection';
import { IdempotencyKeys, sha256 } from './idempotent-send.service';
import { MessageReader } from './message-reader';
import { RouteRegistry } from './route-registry.service';
import { AcceptedAppend, queuedAppend, SendContext, SendPipeline } from './send-pipeline.service';
import { TestSendQuota } from './test-send-quota';

type WalletContext = Extract<SendContext, { mode: 'wallet' }>;

/** Batch items checked between two turns of the event loop. */
const ITEMS_PER_SLICE = 100;

/** One slot of a batch's answer: the message sent, or the item's refusal (a 400 of its own). */
export type BatchSlot = { readonly message: ApiMessage } | { readonly error: DomainError };

export interface BatchView {
  /** Null for a batch that accepted no item: nothing of it was recorded, so there is nothing to read. */
  readonly id: string | null;
  readonly data: readonly BatchSlot[];
  readonly accepted: number;
  readonly refused: number;
}

/** The batch as far as idempotency is concerned: every field a send reads, exactly as sent. */
export function batchRequestHashOf(body: BatchInput): string {
  const item = (m: unknown) => {
    if (typeof m !== 'object' || m === null) return m;
    const fields = m as { to?: unknown; message?: unknown };
    return [fields.to ?? null, fields.message ?? null];
  };
  return sha256(
    JSON.stringify([
      'batch',
      body.sender_id ?? null,
      body.type ?? null,
      body.message ?? null,
      body.messages.map(item),
      // Only when given, as for a single send: keys recorded before send_at existed still match.
      ...(body.send_at === undefined || body.send_at === null ? [] : [body.send_at]),
    ]),
  );
}

/** The answer to a batch that accepted no item: each item's refusal in its slot, and no batch id. */
function nothingAccepted(refusals: readonly DomainError[]): BatchView {
  return { id: null, data: refusals.map((error) => ({ error })), accepted: 0, refused: refusals.length };
}

/** Every item refused, found before the key was claimed: answered without recording anything. */
class NothingAccepted extends Error {
  constructor(readonly refusals: readonly DomainError[]) {
    super('no item of the batch can be sent');
  }
}

const refusalOf = ({ error }: Extract<BatchItemRecord, { error: unknown }>) =>
  invalid(error.code, error.message, error.param ?? undefined);

/**
 * POST /v1/messages/batch: each item is checked exactly as a single send (SendPipeline's rules),
 * then every valid item's credits are reserved in ONE wallet decision, all or none (402), and
 * recorded in the same write as the messages' MessageQueued and the batch's own record
 * (BatchSubmitted): one append where the store writes several streams at once. Its messages
 * are ordinary messages from then on (dispatch, receipts, settlement, webhooks).
 */
@Injectable()
export class BatchSend {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sends: SendPipeline,
    private readonly routes: RouteRegistry,
    private readonly wallets: WalletService,
    private readonly messages: MessageReader,
    private readonly testQuota: TestSendQuota,
    private readonly keys: IdempotencyKeys,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly compliance: ComplianceGate,
    private readonly limiter: RateLimiter,
  ) {}

  async send(
    body: BatchInput,
    ctx: WalletContext,
    key: string | null,
  ): Promise<{ batch: BatchView; replayed: boolean }> {
    // Every item is work, accepted or not: counted against the wallet before any is checked.
    this.limiter.consumeBatchItems(ctx.walletId, ctx.environment, body.messages.length);
    const refusalsOf = (items: readonly BatchItemCheck[]) =>
      items.flatMap((item) => (item.ok ? [] : [item.error]));
    if (key === null) {
      const items = await this.check(body, ctx);
      const refusals = refusalsOf(items);
      if (refusals.length === items.length) return { batch: nothingAccepted(refusals), replayed: false };
      return { batch: await this.submit(items, ctx, newId('bat'), null), replayed: false };
    }
    // The key is looked up first: a recorded answer is replayed whatever the time now says of the
    // body (a send_at passed meanwhile). A refusal of the whole batch (400) is never recorded; nor
    // is a batch that accepts nothing: like a 400 it has nothing to replay, and a retry under its
    // key is checked again (and sent, if it has become sendable).
    let items: BatchItemCheck[] | null = null;
    const checked = async () => (items ??= await this.check(body, ctx));
    const acceptsSomething = async () => {
      const all = await checked();
      const refusals = refusalsOf(all);
      if (refusals.length === all.length && (await this.keys.isFree(key, ctx.walletId)))
        throw new NothingAccepted(refusals);
    };
    const run = this.keys.run(key, ctx.walletId, batchRequestHashOf(body), {
      check: acceptsSomething,
      newClaim: () => ({ batchId: newId('bat') }),
      run: async (batchId) => ({
        answer: await this.submit(await checked(), ctx, batchId, key),
        replayed: false,
      }),
      recorded: (batchId) => this.recorded(batchId, ctx),
      started: async (batchId) =>
        (await this.events.readStream(batchStream(batchId), { limit: 1 })).length > 0,
    });
    try {
      const { answer, replayed } = await run;
      return { batch: answer, replayed };
    } catch (error) {
      if (error instanceof NothingAccepted)
        return { batch: nothingAccepted(error.refusals), replayed: false };
      throw error;
    }
  }

  /**
   * Each item's verdict as its single send would get it (the batch's quote and its send ask the
   * same): valid, then routable in this environment. A refusal of the whole batch is thrown.
   */
  async check(body: BatchInput, ctx: WalletContext): Promise<BatchItemCheck[]> {
    const shared = validateBatchShared(body, this.clock.now());
    if (!shared.ok) throw shared.error;
    // The sender ID is the whole batch's: not approved for a LIVE batch, none of it is sent.
    const senderRefusal = await this.compliance.senderIdRefusal(ctx, String(body.sender_id));
    if (senderRefusal) throw senderRefusal;
    const routes = await this.routes.operatorRoutes();
    const checked: BatchItemCheck[] = [];
    for (let index = 0; index < body.messages.length; index++) {
      // A slice at a time, letting other requests in between: a number abroad takes up to 0.1 ms
      // to parse, so 1,000 of them would hold the HTTP thread for 100 ms at once.
      if (index > 0 && index % ITEMS_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      checked.push(validateBatchItem(body, index, routes, shared.value));
    }
    return Promise.all(
      checked.map(async (item, index): Promise<BatchItemCheck> => {
        if (!item.ok) return item;
        const routed = this.sends.routable(item.value, ctx);
        if (!routed.ok) return err(atItem(routed.error, index));
        const optedOut = await this.compliance.recipientRefusal(ctx, item.value.to, item.value.type);
        return optedOut ? err(atItem(optedOut, index)) : routed;
      }),
    );
  }

  /** The batch as recorded, its messages as they are now; null while it is not (fully) recorded. */
  async recorded(batchId: string, ctx: WalletContext): Promise<BatchView | null> {
    const record = await this.messages.batch(batchId);
    if (!record || record.walletId !== ctx.walletId) return null;
    const data = await Promise.all(
      record.items.map(async (item): Promise<BatchSlot | null> => {
        if ('error' in item) return { error: refusalOf(item) };
        const doc = await this.messages.find(item.messageId, ctx);
        return doc ? { message: toApiMessage(doc) } : null;
      }),
    );
    if (data.some((slot) => slot === null)) return null;
    return { id: batchId, data: data as BatchSlot[], accepted: record.accepted, refused: record.refused };
  }

  private async submit(
    items: readonly BatchItemCheck[],
    ctx: WalletContext,
    batchId: string,
    key: string | null,
  ): Promise<BatchView> {
    const now = this.clock.now();
    const queued: MessageQueuedData[] = [];
    const accepted: AcceptedAppend[] = [];
    const records: BatchItemRecord[] = items.map((item, index) => {
      if (!item.ok) {
        const { code, message, param } = item.error;
        return { error: { code, message, param: param ?? null } };
      }
      const messageId = batchMessageId(batchId, index);
      const data = this.sends.queuedData(item.value, ctx, messageId, now, { idempotencyKey: key, batchId });
      queued.push(data);
      accepted.push(queuedAppend(data, item.value.sendAt));
      return { messageId };
    });
    const record: BatchSubmittedData = {
      batchId,
      walletId: ctx.walletId,
      accountId: ctx.accountId,
      environment: ctx.environment,
      items: records,
      accepted: queued.length,
      refused: items.length - queued.length,
      createdAt: now.toISOString(),
      idempotencyKey: key,
    };
    const appends: StreamAppend[] = [
      {
        streamId: batchStream(batchId),
        events: [{ type: 'BatchSubmitted', data: record }],
        expected: 'no_stream',
      },
      ...accepted,
    ];
    if (!(await this.write(ctx, queued, appends, now))) {
      const resumed = await this.recorded(batchId, ctx);
      if (resumed) return resumed;
      // A message of it was given up meanwhile (the orphan reaper rejected it): as for a single send.
      throw new DomainError(
        'unavailable',
        'send_abandoned',
        'This batch was abandoned after an interruption; send it again',
      );
    }
    let next = 0;
    const data = items.map((item): BatchSlot => {
      if (!item.ok) return { error: item.error };
      return { message: toApiMessage(queuedDoc(accepted[next++].events[0].data, '', 0n)) };
    });
    return { id: batchId, data, accepted: record.accepted, refused: record.refused };
  }

  /**
   * Reserves and records the batch: true when written now, false when an interrupted run of the
   * same batch had written (part of) it, which is then completed.
   */
  private async write(
    ctx: WalletContext,
    queued: readonly MessageQueuedData[],
    appends: readonly StreamAppend[],
    now: Date,
  ): Promise<boolean> {
    // TEST credits are free and come back: a TEST wallet's messages are also counted per day.
    const quotaWallet = ctx.environment === 'TEST' && queued.length > 0 ? ctx.walletId : null;
    if (quotaWallet !== null) await this.testQuota.take(quotaWallet, now.getTime(), queued.length);
    try {
      if (queued.length === 0) {
        await this.events.append(appends[0].streamId, appends[0].events, appends[0].expected);
        return true;
      }
      const reservations = queued.map((m) => ({ messageId: m.messageId, sms: m.credits }));
      const reserved = await this.wallets.reserveBatch(ctx.walletId, reservations, appends);
      if (!reserved.ok) throw reserved.error;
      if (reserved.value.events.length > 0) return true;
    } catch (error) {
      if (quotaWallet !== null) this.testQuota.giveBack(quotaWallet, queued.length);
      if (!(error instanceof ConcurrencyError) || !appends.some((a) => a.streamId === error.streamId))
        throw error;
    }
    // Reserved before (the batch is being finished): write whatever of it is still missing.
    await Promise.all(appends.map((a) => this.appendIfMissing(a)));
    return false;
  }

  private async appendIfMissing(append: StreamAppend): Promise<void> {
    try {
      await this.events.append(append.streamId, append.events, append.expected);
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
