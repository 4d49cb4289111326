import { Inject, Injectable } from '@nestjs/common';
import { ComplianceGate } from '../../compliance/application/compliance-gate.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid } from '../../shared/domain-error';
import {
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  StreamAppend,
} from '../../shared/event-store/event-store.port';
import { newId } from '../../shared/ids';
import { err, ok, Result } from '../../shared/result';
import { SECRET_BOX, SecretBox } from '../../shared/secret-box';
import type { Alongside } from '../../wallet/application/wallet-command-queue';
import { WalletService } from '../../wallet/application/wallet.service';
import { SendInput, ValidSend, validateSend } from '../domain/message-input';
import { acceptedEvent, MessageQueuedData, messageStream } from '../domain/message.events';
import { isSandboxNumber, SANDBOX_NUMBERS } from '../domain/sandbox';
import { CARRIER_ROUTES, CarrierRoutes, Environment } from '../ports/carrier.port';
import { ApiMessage, queuedDoc, toApiMessage } from '../projections/messages.projection';
import { MessageReader } from './message-reader';
import { RouteRegistry } from './route-registry.service';
import { TestSendQuota } from './test-send-quota';

/** Who a send is for: a wallet (API key, console) or the key-less sandbox try-out, which touches no wallet. */
export type SendContext =
  | {
      readonly mode: 'wallet';
      readonly walletId: string;
      readonly accountId: string;
      readonly environment: Environment;
    }
  | { readonly mode: 'sandbox' };

export interface SendOptions {
  /** Pre-assigned by an Idempotency-Key claim; otherwise a new id. */
  readonly messageId?: string;
  readonly idempotencyKey?: string | null;
  /** The batch the message is sent in (recorded on it). */
  readonly batchId?: string;
  /** The campaign the message is sent in (recorded on it). */
  readonly campaignId?: string;
  /**
   * A secret message (a one-time code): its text is recorded only sealed, and every read (events'
   * `body`, read models, webhooks, /v1/messages, the console) shows `displayText` instead.
   */
  readonly secret?: { readonly displayText: string };
  /**
   * Another stream's append that belongs with this message (a verification's start): recorded in
   * the same write as the reservation and the message, or not at all (a 402 records nothing).
   * Where the store cannot write several streams at once it follows the reservation, like the
   * message. Wallet sends only.
   */
  readonly alongside?: StreamAppend;
}

export interface SendOutcome {
  readonly message: ApiMessage;
  /** False when the message already existed (a resumed idempotent send). */
  readonly created: boolean;
}

export const environmentOf = (ctx: SendContext): Environment =>
  ctx.mode === 'sandbox' ? 'TEST' : ctx.environment;

/** A message stream's first append, at no_stream: its MessageQueued, or MessageScheduled with a send_at. */
export type AcceptedAppend = StreamAppend & { readonly events: readonly [ReturnType<typeof acceptedEvent>] };
export const queuedAppend = (data: MessageQueuedData, sendAt?: string | null): AcceptedAppend => ({
  streamId: messageStream(data.messageId),
  events: [acceptedEvent(data, sendAt)],
  expected: 'no_stream',
});

/**
 * The one send path (API, console, try-out): validate, then reserve the credits and queue (or,
 * with a send_at, schedule) the message in one write, and answer from it.
 *
 * Where the store cannot write two streams at once (EventStoreDB), the reservation is written
 * first: a crash before the message leaves a reservation without a message, which the orphan
 * reaper rejects and releases; a message is never queued without its reservation.
 */
@Injectable()
export class SendPipeline {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly messages: MessageReader,
    private readonly wallets: WalletService,
    private readonly routes: RouteRegistry,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly testQuota: TestSendQuota,
    private readonly compliance: ComplianceGate,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
  ) {}

  /** Everything a send checks before it touches anything: the 400s, in API.md's order. */
  async validate(body: unknown, ctx: SendContext): Promise<ValidSend> {
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw invalid(
        'invalid_request',
        'The request body must be a JSON object with to, sender_id, message and type',
      );
    }
    const input = (body ?? {}) as SendInput;
    if (
      ctx.mode === 'sandbox' &&
      input.to !== undefined &&
      input.to !== null &&
      !(typeof input.to === 'string' && isSandboxNumber(input.to))
    ) {
      throw invalid(
        'sandbox_number_required',
        `The sandbox try-out sends only to the sandbox numbers ${SANDBOX_NUMBERS.join(', ')}`,
        'to',
      );
    }
    const valid = validateSend(input, await this.routes.operatorRoutes(), this.clock.now());
    if (!valid.ok) throw valid.error;
    const routed = this.routable(valid.value, ctx);
    if (!routed.ok) throw routed.error;
    if (ctx.mode === 'wallet') {
      const refusal =
        (await this.compliance.senderIdRefusal(ctx, routed.value.senderId)) ??
        (await this.compliance.recipientRefusal(ctx, routed.value.to, routed.value.type));
      if (refusal) throw refusal;
    }
    return routed.value;
  }

  /** A valid send whose carrier this environment has a connection to; else `carrier_unavailable`. */
  routable(valid: ValidSend, ctx: SendContext): Result<ValidSend, DomainError> {
    const environment = environmentOf(ctx);
    if (this.carriers.carrierFor(valid.carrier, environment)) return ok(valid);
    return err(
      invalid(
        'carrier_unavailable',
        `No ${environment} connection to carrier ${valid.carrier} is configured; nothing was reserved`,
        'to',
      ),
    );
  }

  async send(body: unknown, ctx: SendContext, options: SendOptions = {}): Promise<SendOutcome> {
    return this.sendValid(await this.validate(body, ctx), ctx, options);
  }

  /**
   * Reserves and queues an already validated send, and answers from its own append: the message
   * is readable at once (MessageReader finds it in the log until the read model has it), so no
   * read model is waited for. Safe to run twice with the same message id.
   */
  async sendValid(valid: ValidSend, ctx: SendContext, options: SendOptions = {}): Promise<SendOutcome> {
    const messageId = options.messageId ?? newId('msg');
    const now = this.clock.now();
    const environment = environmentOf(ctx);
    const data = this.queuedData(valid, ctx, messageId, now, options);
    const queued = queuedAppend(data, valid.sendAt);
    // TEST credits are free and come back: a TEST wallet's sends are also counted per day.
    const quotaWallet = ctx.mode === 'wallet' && environment === 'TEST' ? ctx.walletId : null;
    if (quotaWallet !== null) {
      const seeding = this.testQuota.take(quotaWallet, now.getTime());
      if (seeding) await seeding;
    }
    try {
      // The reservation and the message are one write: recorded together, or neither.
      const recorded =
        ctx.mode === 'wallet'
          ? await this.reserve(
              ctx.walletId,
              messageId,
              valid,
              options.alongside ? [queued, options.alongside] : queued,
            )
          : false;
      if (!recorded) await this.events.append(queued.streamId, queued.events, queued.expected);
    } catch (error) {
      if (quotaWallet !== null) this.testQuota.giveBack(quotaWallet); // no new message
      if (!(error instanceof ConcurrencyError) || error.streamId !== queued.streamId) throw error;
      return { message: await this.existing(messageId, ctx), created: false };
    }
    return { message: toApiMessage(queuedDoc(queued.events[0].data, '', 0n)), created: true };
  }

  /** What a message's MessageQueued (or MessageScheduled, with its send_at) records. */
  queuedData(
    valid: ValidSend,
    ctx: SendContext,
    messageId: string,
    now: Date,
    options: SendOptions = {},
  ): MessageQueuedData {
    const environment = environmentOf(ctx);
    const data: MessageQueuedData = {
      messageId,
      walletId: ctx.mode === 'wallet' ? ctx.walletId : '',
      accountId: ctx.mode === 'wallet' ? ctx.accountId : '',
      environment,
      to: valid.to,
      senderId: valid.senderId,
      body: valid.message,
      type: valid.type,
      carrier: valid.carrier,
      encoding: valid.encoding,
      segments: valid.segments,
      credits: valid.credits,
      // Validity counts from when it may first be sent: now, or its send_at.
      validUntil: new Date(
        (valid.sendAt ? Date.parse(valid.sendAt) : now.getTime()) +
          this.config.messageValidityMs[environment],
      ).toISOString(),
      createdAt: now.toISOString(),
      idempotencyKey: options.idempotencyKey ?? null,
    };
    const shown = options.secret
      ? { ...data, body: options.secret.displayText, sealedBody: this.secrets.seal(valid.message) }
      : data;
    if (options.batchId) return { ...shown, batchId: options.batchId };
    return options.campaignId ? { ...shown, campaignId: options.campaignId } : shown;
  }

  /** True when the reservation was recorded now, with the message; false when it already was. */
  private async reserve(walletId: string, messageId: string, valid: ValidSend, queued: Alongside) {
    const reserved = await this.wallets.reserve(walletId, messageId, valid.credits, queued);
    if (!reserved.ok) throw reserved.error;
    return reserved.value.events.length > 0;
  }

  /** The message another send with the same id already queued (or the reason it never was). */
  private async existing(messageId: string, ctx: SendContext): Promise<ApiMessage> {
    const doc = await this.messages.find(messageId, ctx.mode === 'sandbox' ? 'sandbox' : ctx);
    if (doc) return toApiMessage(doc);
    throw new DomainError(
      'unavailable',
      'send_abandoned',
      'This send was abandoned after an interruption; send it again',
    );
  }
}
