import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, ErrorKind } from '../../shared/domain-error';
import {
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  ExpectedRevision,
  RecordedEvent,
} from '../../shared/event-store/event-store.port';
import { DomainErrorWithHeaders } from '../../shared/http/error-body';
import { newId } from '../../shared/ids';
import { messageStream } from '../domain/message.events';
import type { SendInput } from '../domain/message-input';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { ApiMessage, toApiMessage } from '../projections/messages.projection';
import { MessageReader } from './message-reader';
import { SendContext, SendPipeline } from './send-pipeline.service';

/** API.md: an Idempotency-Key is kept 24 h. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim whose message never appeared this long after it was made was abandoned by a crashed request. */
export const ABANDONED_CLAIM_MS = 60 * 1000;

export type IdempotencyKeyClaimedData = {
  readonly requestHash: string;
  readonly messageId: string;
  readonly claimedAt: string;
};
/** A refusal that is part of the answer (402): replayed as it was. */
export type IdempotentRequestRefusedData = {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly message: string;
  readonly param: string | null;
  readonly at: string;
};
/** The first request failed for a technical reason: the key is free again. */
export type IdempotencyKeyReleasedData = { readonly reason: string; readonly at: string };

export interface IdempotencyState {
  readonly claim: IdempotencyKeyClaimedData | null;
  readonly refusal: IdempotentRequestRefusedData | null;
  /** -1n when the stream does not exist. */
  readonly revision: bigint;
}

export function foldIdempotency(events: readonly RecordedEvent[]): IdempotencyState {
  let state: IdempotencyState = { claim: null, refusal: null, revision: -1n };
  for (const event of events) {
    if (event.type === 'IdempotencyKeyClaimed')
      state = { ...state, claim: event.data as IdempotencyKeyClaimedData, refusal: null };
    else if (event.type === 'IdempotentRequestRefused')
      state = { ...state, refusal: event.data as IdempotentRequestRefusedData };
    else if (event.type === 'IdempotencyKeyReleased') state = { ...state, claim: null, refusal: null };
    state = { ...state, revision: event.revision };
  }
  return state;
}

/** What to do with a request given the key's history: pure, so the rules are unit-tested. */
export type IdempotencyDecision =
  | { readonly action: 'claim'; readonly expected: ExpectedRevision }
  | { readonly action: 'mismatch' }
  | { readonly action: 'replay_refusal'; readonly refusal: IdempotentRequestRefusedData }
  | { readonly action: 'replay_message'; readonly messageId: string; readonly abandonedIfMissing: boolean };

export function decideIdempotency(
  state: IdempotencyState,
  requestHash: string,
  now: Date,
): IdempotencyDecision {
  const age = state.claim ? now.getTime() - Date.parse(state.claim.claimedAt) : Infinity;
  if (!state.claim || age >= IDEMPOTENCY_TTL_MS) {
    return { action: 'claim', expected: state.revision < 0n ? 'no_stream' : state.revision };
  }
  if (state.claim.requestHash !== requestHash) return { action: 'mismatch' };
  if (state.refusal) return { action: 'replay_refusal', refusal: state.refusal };
  return {
    action: 'replay_message',
    messageId: state.claim.messageId,
    abandonedIfMissing: age >= ABANDONED_CLAIM_MS,
  };
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The request as far as idempotency is concerned: the send fields exactly as sent. `send_at`
 * counts only when given, so a send without it hashes as it did before scheduling existed.
 */
export function requestHashOf(body: unknown): string {
  const input = (body && typeof body === 'object' ? body : {}) as Partial<SendInput>;
  const fields = [input.to ?? null, input.sender_id ?? null, input.message ?? null, input.type ?? null];
  if (input.send_at !== undefined && input.send_at !== null) fields.push(input.send_at);
  return sha256(JSON.stringify(fields));
}

export const idempotencyStream = (walletId: string, key: string) => `idempotency-${walletId}-${sha256(key)}`;

const replayed = (error: DomainError) => new DomainErrorWithHeaders(error, { 'idempotent-replayed': 'true' });

/**
 * POST /v1/messages with an Idempotency-Key. The key is claimed by appending to its own stream
 * at no_stream (or, past 24 h, at the stream's revision): exactly one request wins and sends with
 * the message id named in the claim. Every other request with the key gets that message, the
 * recorded 402, a 422 for a different body, or a 409 while the first is still in flight.
 */
@Injectable()
export class IdempotentSend {
  private readonly logger = new Logger('idempotency');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sender: SendPipeline,
    private readonly messages: MessageReader,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  async send(
    key: string,
    body: unknown,
    ctx: Extract<SendContext, { mode: 'wallet' }>,
  ): Promise<{ message: ApiMessage; replayed: boolean }> {
    // Validation errors are answered before the key is looked at, and never recorded.
    const valid = await this.sender.validate(body, ctx);
    const requestHash = requestHashOf(body);
    const stream = idempotencyStream(ctx.walletId, key);
    for (let attempt = 0; attempt < 10; attempt++) {
      const state = foldIdempotency(await this.events.readStream(stream));
      const decision = decideIdempotency(state, requestHash, this.clock.now());
      switch (decision.action) {
        case 'mismatch':
          throw new DomainError(
            'unprocessable',
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request body',
            'Idempotency-Key',
          );
        case 'replay_refusal': {
          const r = decision.refusal;
          throw replayed(new DomainError(r.kind, r.code, r.message, r.param ?? undefined));
        }
        case 'replay_message': {
          const message = await this.waitForMessage(decision.messageId, ctx);
          if (message) return { message, replayed: true };
          if (
            decision.abandonedIfMissing &&
            (await this.events.readStream(messageStream(decision.messageId), { limit: 1 })).length === 0
          ) {
            // The first request died between its claim and its message: finish it under the same id.
            return this.runClaimed(stream, state.revision, decision.messageId, key, valid, ctx);
          }
          throw new DomainError(
            'conflict',
            'idempotency_request_in_progress',
            'A request with this Idempotency-Key is still in progress; retry shortly',
            'Idempotency-Key',
          );
        }
        case 'claim': {
          const messageId = newId('msg');
          const data: IdempotencyKeyClaimedData = {
            requestHash,
            messageId,
            claimedAt: this.clock.now().toISOString(),
          };
          let revision: bigint;
          try {
            revision = (
              await this.events.append(stream, [{ type: 'IdempotencyKeyClaimed', data }], decision.expected)
            ).nextExpectedRevision;
          } catch (error) {
            if (error instanceof ConcurrencyError) continue; // another request claimed it first: answer as it does
            throw error;
          }
          return this.runClaimed(stream, revision, messageId, key, valid, ctx);
        }
      }
    }
    throw new DomainError(
      'conflict',
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still in progress; retry shortly',
    );
  }

  private async runClaimed(
    stream: string,
    revision: bigint,
    messageId: string,
    key: string,
    valid: Awaited<ReturnType<SendPipeline['validate']>>,
    ctx: Extract<SendContext, { mode: 'wallet' }>,
  ): Promise<{ message: ApiMessage; replayed: boolean }> {
    try {
      const outcome = await this.sender.sendValid(valid, ctx, { messageId, idempotencyKey: key });
      return { message: outcome.message, replayed: !outcome.created };
    } catch (error) {
      const at = this.clock.now().toISOString();
      if (error instanceof DomainError && error.kind === 'insufficient_credit') {
        const data: IdempotentRequestRefusedData = {
          kind: error.kind,
          code: error.code,
          message: error.message,
          param: error.param ?? null,
          at,
        };
        await this.record(stream, revision, 'IdempotentRequestRefused', data);
      } else {
        await this.record(stream, revision, 'IdempotencyKeyReleased', {
          reason: (error as Error)?.name ?? 'error',
          at,
        });
      }
      throw error;
    }
  }

  private async record(stream: string, revision: bigint, type: string, data: object): Promise<void> {
    try {
      await this.events.append(stream, [{ type, data }], revision);
    } catch (error) {
      this.logger.warn(`could not record ${type} on ${stream}: ${(error as Error).message}`);
    }
  }

  private async waitForMessage(
    messageId: string,
    ctx: Extract<SendContext, { mode: 'wallet' }>,
  ): Promise<ApiMessage | null> {
    const deadline = Date.now() + this.options.idempotencyWaitMs;
    for (;;) {
      const doc = await this.messages.find(messageId, ctx);
      if (doc) return toApiMessage(doc);
      if (Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
