import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { newId } from '../../shared/ids';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { WalletService } from '../../wallet/application/wallet.service';
import { isMessage, messageDecider } from '../domain/message.decider';
import { SendInput, ValidSend, validateSendInput } from '../domain/message-input';
import { MessageQueuedData, messageStream } from '../domain/message.events';
import { isSandboxNumber, SANDBOX_NUMBERS } from '../domain/sandbox';
import { CARRIER_ROUTES, CarrierRoutes, Environment } from '../ports/carrier.port';
import {
  ApiMessage,
  MESSAGES,
  MESSAGES_PROJECTION,
  MessageDoc,
  queuedDoc,
  toApiMessage,
} from '../projections/messages.projection';
import { RouteRegistry } from './route-registry.service';

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
}

export interface SendOutcome {
  readonly message: ApiMessage;
  /** False when the message already existed (a resumed idempotent send). */
  readonly created: boolean;
}

export const environmentOf = (ctx: SendContext): Environment =>
  ctx.mode === 'sandbox' ? 'TEST' : ctx.environment;

/**
 * The one send path (API, console, try-out): validate, reserve the credits, queue the message,
 * and answer once the message read model has it, so a GET right after never misses it.
 *
 * Reserve first, then queue: a crash in between leaves a reservation without a message, which
 * the orphan reaper rejects and releases; a message is never queued without its reservation.
 */
@Injectable()
export class SendPipeline {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    private readonly routes: RouteRegistry,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const valid = validateSendInput(input, await this.routes.operatorRoutes());
    if (!valid.ok) throw valid.error;
    const environment = environmentOf(ctx);
    if (!this.carriers.carrierFor(valid.value.carrier, environment)) {
      throw invalid(
        'carrier_unavailable',
        `No ${environment} connection to carrier ${valid.value.carrier} is configured; nothing was reserved`,
        'to',
      );
    }
    return valid.value;
  }

  async send(body: unknown, ctx: SendContext, options: SendOptions = {}): Promise<SendOutcome> {
    return this.sendValid(await this.validate(body, ctx), ctx, options);
  }

  /** Reserves and queues an already validated send. Safe to run twice with the same message id. */
  async sendValid(valid: ValidSend, ctx: SendContext, options: SendOptions = {}): Promise<SendOutcome> {
    const messageId = options.messageId ?? newId('msg');
    const now = this.clock.now();
    const environment = environmentOf(ctx);
    if (ctx.mode === 'wallet') {
      const reserved = await this.wallets.reserve(ctx.walletId, messageId, valid.credits);
      if (!reserved.ok) throw reserved.error;
    }
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
      validUntil: new Date(now.getTime() + this.config.messageValidityMs[environment]).toISOString(),
      createdAt: now.toISOString(),
      idempotencyKey: options.idempotencyKey ?? null,
    };
    let position: bigint;
    try {
      position = (
        await this.events.append(messageStream(messageId), [{ type: 'MessageQueued', data }], 'no_stream')
      ).position;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      return { message: await this.existing(messageId), created: false };
    }
    await this.projections.waitFor(position, [MESSAGES_PROJECTION]);
    return { message: toApiMessage(queuedDoc(data, '', 0n)), created: true };
  }

  /** The message another send with the same id already queued (or the reason it never was). */
  private async existing(messageId: string): Promise<ApiMessage> {
    const loaded = await this.aggregates.load(messageStream(messageId), messageDecider);
    if (!isMessage(loaded.state)) {
      throw new DomainError(
        'unavailable',
        'send_abandoned',
        'This send was abandoned after an interruption; send it again',
      );
    }
    await this.projections.catchUp([MESSAGES_PROJECTION]);
    const doc = await this.reads.get<MessageDoc>(MESSAGES, messageId);
    if (!doc)
      throw new DomainError(
        'unavailable',
        'service_unavailable',
        'The message is not readable yet; retry shortly',
      );
    return toApiMessage(doc);
  }
}
