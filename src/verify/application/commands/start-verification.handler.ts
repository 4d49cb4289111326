import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError } from '../../../shared/domain-error';
import { fold } from '../../../shared/decider';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { ConcurrencyError } from '../../../shared/event-store/event-store.port';
import { DomainErrorWithHeaders } from '../../../shared/http/error-body';
import { newId } from '../../../shared/ids';
import { VerifyMetrics } from '../../../shared/metrics/verify.metrics';
import { unwrap } from '../../../shared/result';
import { SECRET_BOX, SecretBox } from '../../../shared/secret-box';
import {
  initialState,
  isVerification,
  start,
  Verification,
  verificationDecider,
} from '../../domain/verification.decider';
import { VerificationStartedData, verificationStream } from '../../domain/verification.events';
import { validateVerificationInput } from '../../domain/verification-input';
import { ApiVerification, toApiVerification, verificationMessageId } from '../../domain/verification-object';
import {
  KEY_TTL_MS,
  keyedVerificationId,
  keyPeriodOf,
  keyReused,
  requestHashOf,
} from '../idempotent-verifications';
import { ONE_TIME_CODES, OneTimeCodes } from '../one-time-codes';
import type { VerificationAnswer, VerifyCaller } from '../verification-caller';
import { VerificationGuard } from '../verification-guard.service';
import { VerificationSms } from '../verification-sms.service';
import { StartVerification } from './start-verification.command';

const tooMany = (retryAfterSeconds: number, limit: string) =>
  new DomainErrorWithHeaders(
    new DomainError(
      'rate_limit',
      'too_many_verifications',
      limit === 'number'
        ? 'Too many verifications to this number in the last hour; nothing was sent'
        : limit === 'range'
          ? 'Too many verifications to numbers of this range in the last hour; nothing was sent'
          : 'Too many verifications from this wallet in the last hour; nothing was sent',
    ),
    { 'retry-after': String(retryAfterSeconds) },
  );

/**
 * In order: the verification's own fields (400s), the key's earlier answer if any, messaging's
 * checks of the SMS (400s, 422s, 402), the fraud guard (429), then one write: the SMS's
 * reservation and message with VerificationStarted (the code's keyed hash) beside them, so there
 * is never an SMS whose code nobody can check, nor a verification whose SMS was refused.
 */
@CommandHandler(StartVerification)
export class StartVerificationHandler implements ICommandHandler<
  StartVerification,
  VerificationAnswer<ApiVerification>
> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly guard: VerificationGuard,
    private readonly sms: VerificationSms,
    @Inject(ONE_TIME_CODES) private readonly codes: OneTimeCodes,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: VerifyMetrics,
  ) {}

  async execute({
    caller,
    input,
    idempotencyKey,
  }: StartVerification): Promise<VerificationAnswer<ApiVerification>> {
    const settings = unwrap(validateVerificationInput(input));
    const requestHash = idempotencyKey === null ? null : requestHashOf(input);
    if (idempotencyKey !== null) {
      const earlier = await this.keyed(caller, idempotencyKey);
      if (earlier) return this.replay(earlier, requestHash);
    }
    const now = this.clock.now();
    const verificationId =
      idempotencyKey === null
        ? newId('ver', now.getTime())
        : keyedVerificationId(caller.walletId, idempotencyKey, keyPeriodOf(now));
    const code = this.codes.generate(settings.codeLength);
    const sms = this.sms.compose(settings.to, settings.senderId, settings.template, code);
    const { to, credits } = await this.sms.precheck(caller, sms);

    const admission = await this.guard.admit(caller.walletId, verificationId, to);
    if (!admission.allowed) {
      this.metrics.refused(caller.environment, admission.limit);
      throw tooMany(admission.retryAfterSeconds, admission.limit);
    }

    const messageId = verificationMessageId(verificationId, 1);
    const data: VerificationStartedData = {
      verificationId,
      walletId: caller.walletId,
      accountId: caller.accountId,
      environment: caller.environment,
      to,
      senderId: settings.senderId,
      template: settings.template,
      codeLength: settings.codeLength,
      maxChecks: settings.maxChecks,
      expiresInSeconds: settings.expiresInSeconds,
      codeHash: this.codes.hash(verificationId, 1, code),
      messageId,
      credits,
      expiresAt: new Date(now.getTime() + settings.expiresInSeconds * 1000).toISOString(),
      createdAt: now.toISOString(),
      idempotencyKey,
      requestHash,
      ...(caller.environment === 'TEST' ? { sealedTestCode: this.secrets.seal(code) } : {}),
    };
    const stream = verificationStream(verificationId);
    const events = unwrap(start(initialState(), data));
    let created: boolean;
    try {
      // The start is recorded in the SMS's own write (with its reservation and message), or not at all.
      created = (
        await this.sms.send(caller, sms, messageId, { streamId: stream, events, expected: 'no_stream' })
      ).created;
    } catch (error) {
      if (error instanceof ConcurrencyError && error.streamId === stream) created = false;
      else {
        // Refused after all (the last credits went to another send meanwhile): nothing was recorded.
        if (error instanceof DomainError) await this.guard.giveBack(caller.walletId, verificationId);
        throw error;
      }
    }
    if (!created) return this.replay(await this.startedBy(stream), requestHash);
    const state = fold(verificationDecider, events) as Verification;
    this.aggregates.remember(stream, verificationDecider, { state, revision: 0n });
    this.metrics.startedOne(caller.environment);
    return {
      verification: toApiVerification(state, now),
      testCode: caller.environment === 'TEST' ? code : null,
      replayed: false,
    };
  }

  /** The verification another request with the same key started (it won the race to record it). */
  private async startedBy(stream: string): Promise<Verification> {
    const { state } = await this.aggregates.state(stream, verificationDecider, { trustRemembered: false });
    if (!isVerification(state)) {
      throw new DomainError(
        'conflict',
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still in progress; retry shortly',
        'Idempotency-Key',
      );
    }
    return state;
  }

  /** The verification this key started within the last 24 h, if any (this period's id or the last one's). */
  private async keyed(caller: VerifyCaller, key: string): Promise<Verification | null> {
    const now = this.clock.now();
    const period = keyPeriodOf(now);
    for (const p of [period - 1, period]) {
      const { state } = await this.aggregates.load(
        verificationStream(keyedVerificationId(caller.walletId, key, p)),
        verificationDecider,
      );
      if (!isVerification(state) || state.walletId !== caller.walletId) continue;
      if (now.getTime() - Date.parse(state.createdAt) < KEY_TTL_MS) return state;
    }
    return null;
  }

  private replay(v: Verification, requestHash: string | null): VerificationAnswer<ApiVerification> {
    if (v.requestHash !== requestHash) throw keyReused();
    return {
      verification: toApiVerification(v, this.clock.now()),
      testCode: v.environment === 'TEST' && v.sealedTestCode ? this.secrets.open(v.sealedTestCode) : null,
      replayed: true,
    };
  }
}
