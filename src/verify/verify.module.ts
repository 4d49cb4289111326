import { Inject, Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../shared/read-store/read-store.port';
import { SECRET_BOX, SecretBox } from '../shared/secret-box';
import { CancelVerificationHandler } from './application/commands/cancel-verification.handler';
import { CheckVerificationHandler } from './application/commands/check-verification.handler';
import { ResendVerificationHandler } from './application/commands/resend-verification.handler';
import { StartVerificationHandler } from './application/commands/start-verification.handler';
import { ONE_TIME_CODES, OneTimeCodes } from './application/one-time-codes';
import { VerificationActivityHandler } from './application/queries/verification-activity.handler';
import { VerificationByIdHandler } from './application/queries/verification-by-id.handler';
import { VerificationsPageHandler } from './application/queries/verifications-page.handler';
import { VerificationExpiry } from './application/verification-expiry.service';
import { VerificationGuard } from './application/verification-guard.service';
import { VerificationReader } from './application/verification-reader';
import { VerificationSms } from './application/verification-sms.service';
import { VerificationsHttpController } from './http/verifications.http.controller';
import { verificationsProjection } from './projections/verifications.projection';
import { loadVerifyOptions, VERIFY_OPTIONS, VerifyOptions } from './verify.options';

/** The HMAC key: VERIFY_SECRET when the operator set one, else one derived from the SecretBox's key. */
const codesFactory = (options: VerifyOptions, box: SecretBox) =>
  new OneTimeCodes(
    options.secret !== null
      ? Buffer.from(options.secret, 'utf8')
      : box.deriveKey('verify: one-time code hashes'),
  );

/**
 * Verify: one-time codes over SMS (API.md, "Verify"). Its SMS go through messaging's one send
 * path, by messaging's query and command only; nothing in messaging knows this context.
 */
@Module({
  controllers: [VerificationsHttpController],
  providers: [
    { provide: VERIFY_OPTIONS, useFactory: () => loadVerifyOptions() },
    { provide: ONE_TIME_CODES, useFactory: codesFactory, inject: [VERIFY_OPTIONS, SECRET_BOX] },
    VerificationGuard,
    VerificationSms,
    VerificationReader,
    VerificationExpiry,
    StartVerificationHandler,
    CheckVerificationHandler,
    ResendVerificationHandler,
    CancelVerificationHandler,
    VerificationByIdHandler,
    VerificationsPageHandler,
    VerificationActivityHandler,
  ],
})
export class VerifyModule {
  constructor(projections: ProjectionsService, @Inject(READ_STORE) reads: ReadStore) {
    projections.register(verificationsProjection(reads));
  }
}
