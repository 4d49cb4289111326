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
import type { SendInput, ValidSend } from '../domain/message-input';
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
  /** The message a single send runs under… */
  readonly messageId?: string;
  /** …or the batch a batch send (POST /v1/messages/batch) runs under… */
  readonly batchId?: string;
  /** …or the campaign a campaign (POST /v1/campaigns, its retry) runs under. */
  readonly campaignId?: string;
  readonly claimedAt: string;
};

/** The id a claim runs its request under: its batch's or campaign's, else its message's. */
export const claimedId = (claim: IdempotencyKeyClaimedData): string =>
  claim.batchId ?? claim.campaignId ?? claim.messageId ?? '';
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
  | { readonly action: 'replay'; readonly id: string; readonly abandonedIfMissing: boolean };

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
    action: 'replay',
    id: claimedId(state.claim),
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

const inProgress = () =>
  new DomainError(
    'conflict',
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still in progress; retry shortly',
    'Idempotency-Key',
  );

/** What one kind of request (a send, a batch) does under the id its Idempotency-Key claim names. */
export interface ClaimedRequest<T> {
  /**
   * Everything the request checks before it may run (its 400s, nothing recorded). Asked only when
   * the key holds no answer to replay: a retry after its send_at has passed, or after the sender
   * ID it named was withdrawn, still gets the answer recorded under its key (issue 28).
   */
  check(): Promise<void>;
  /** The claim's id for a first run: `{ messageId }`, `{ batchId }` or `{ campaignId }`, new. */
  newClaim(): { readonly messageId: string } | { readonly batchId: string } | { readonly campaignId: string };
  /** Runs the request under the id: the first time, or to finish one whose first run died. */
  run(id: string): Promise<{ readonly answer: T; readonly replayed: boolean }>;
  /** The answer recorded under the id, or null while there is none (yet). */
  recorded(id: string): Promise<T | null>;
  /** True when the request wrote anything under the id: then it is under way, not abandoned. */
  started(id: string): Promise<boolean>;
}

/**
 * A request with an Idempotency-Key. The key is claimed by appending to its own stream at
 * no_stream (or, past 24 h, at the stream's revision): exactly one request wins and runs under
 * the id named in the claim. Every other request with the key gets that answer, the recorded
 * 402, a 422 for a different body, or a 409 while the first is still in flight.
 */
@Injectable()
export class IdempotencyKeys {
  private readonly logger = new Logger('idempotency');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
  ) {}

  /** True when no request holds the key (none yet, or its claim is past 24 h): the next would be the first. */
  async isFree(key: string, walletId: string): Promise<boolean> {
    const state = foldIdempotency(await this.events.readStream(idempotencyStream(walletId, key)));
    return decideIdempotency(state, '', this.clock.now()).action === 'claim';
  }

  async run<T>(
    key: string,
    walletId: string,
    requestHash: string,
    request: ClaimedRequest<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    const stream = idempotencyStream(walletId, key);
    let checked: Promise<void> | null = null;
    const check = () => (checked ??= request.check());
    for (let attempt = 0; attempt < 10; attempt++) {
      const state = foldIdempotency(await this.events.readStream(stream));
      const decision = decideIdempotency(state, requestHash, this.clock.now());
      switch (decision.action) {
        case 'mismatch':
          await check(); // a body that is wrong in itself is answered as such, as without the key
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
        case 'replay': {
          const answer = await this.waitFor(() => request.recorded(decision.id));
          if (answer !== null) return { answer, replayed: true };
          if (decision.abandonedIfMissing && !(await request.started(decision.id))) {
            // The first request died between its claim and its write: finish it under the same id.
            return this.runClaimed(stream, state.revision, decision.id, request);
          }
          throw inProgress();
        }
        case 'claim': {
          await check();
          const claim = request.newClaim();
          const data: IdempotencyKeyClaimedData = {
            requestHash,
            ...claim,
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
          return this.runClaimed(stream, revision, claimedId(data), request);
        }
      }
    }
    throw inProgress();
  }

  private async runClaimed<T>(
    stream: string,
    revision: bigint,
    id: string,
    request: ClaimedRequest<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    try {
      return await request.run(id);
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

  /** The recorded answer, polled for up to the idempotency wait while the first request writes it. */
  private async waitFor<T>(recorded: () => Promise<T | null>): Promise<T | null> {
    const deadline = Date.now() + this.options.idempotencyWaitMs;
    for (;;) {
      const answer = await recorded();
      if (answer !== null) return answer;
      if (Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** POST /v1/messages with an Idempotency-Key: one message per key, whatever repeats. */
@Injectable()
export class IdempotentSend {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sender: SendPipeline,
    private readonly messages: MessageReader,
    private readonly keys: IdempotencyKeys,
  ) {}

  async send(
    key: string,
    body: unknown,
    ctx: Extract<SendContext, { mode: 'wallet' }>,
  ): Promise<{ message: ApiMessage; replayed: boolean }> {
    // The key is looked up first: a recorded answer is replayed whatever the time now says of
    // the body (a send_at passed meanwhile). Validation errors are never recorded.
    let valid: ValidSend | null = null;
    const validate = async () => (valid ??= await this.sender.validate(body, ctx));
    const { answer, replayed } = await this.keys.run(key, ctx.walletId, requestHashOf(body), {
      check: async () => void (await validate()),
      newClaim: () => ({ messageId: newId('msg') }),
      run: async (messageId) => {
        const outcome = await this.sender.sendValid(await validate(), ctx, {
          messageId,
          idempotencyKey: key,
        });
        return { answer: outcome.message, replayed: !outcome.created };
      },
      recorded: async (messageId) => {
        const doc = await this.messages.find(messageId, ctx);
        return doc ? toApiMessage(doc) : null;
      },
      started: async (messageId) =>
        (await this.events.readStream(messageStream(messageId), { limit: 1 })).length > 0,
    });
    return { message: answer, replayed };
  }
}
