import { Logger } from '@nestjs/common';
import type { QueryBus } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { AccountEmail } from '../../accounts/application/queries/account-email.query';
import { ACCOUNT_STREAM_PREFIX, type MemberInvited } from '../../accounts/domain/account.events';
import {
  PASSWORD_RESETS_STREAM_PREFIX,
  PasswordResetRequested,
} from '../../accounts/domain/password-reset.events';
import {
  CHECKOUT_STREAM_PREFIX,
  CheckoutEvent,
  CheckoutStarted,
  PaymentConfirmed,
} from '../../billing/domain/checkout.events';
import {
  SENDER_ID_STREAM_PREFIX,
  SenderIdApproved,
  SenderIdRejected,
} from '../../compliance/domain/compliance.events';
import { base62 } from '../../shared/ids';
import type { EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  AutoTopUpFailed,
  LowBalanceAlerted,
  WALLET_CARE_STREAM_PREFIX,
} from '../../wallet/domain/wallet-care.events';
import type { MailTemplate } from '../domain/mail-templates';
import type { MailQueued } from '../domain/mail.events';
import type { MailQueue } from './mail-queue.service';

export const MAIL_REQUESTS_PROCESS = 'mail-requests';

/**
 * A mail's id follows from the event that caused it (its stream and revision), so the same
 * cause seen again (a batch run again after a crash, or by a second process) names the same
 * mail, whose stream can be created once. It starts with the cause's log position, so mail
 * ids sort in the order their causes happened.
 */
export function mailIdFor(cause: RecordedEvent): string {
  const digest = createHash('sha256').update(`${cause.streamId}@${cause.revision}`).digest('hex');
  return `mail_${base62(cause.position, 11)}${digest.slice(0, 16)}`;
}

interface Request {
  readonly to: string | null;
  readonly accountId: string | null;
  readonly template: MailTemplate;
}

/**
 * Turns the log's events that someone must hear about into queued mails: a low balance, a
 * purchase (a checkout or an auto top-up succeeded), a failed auto top-up, a sender ID decided,
 * a password reset, an invitation to join an account. Queuing is an append that creates the mail's stream, in the batch's group
 * commit; the outbox worker sends it. Nothing here waits for a mail server.
 */
export function mailRequestsProcess(events: EventStore, queries: QueryBus, mails: MailQueue): Projection {
  const logger = new Logger('mail-requests');
  const emailOf = (accountId: string) => queries.execute(new AccountEmail(accountId));

  async function requestFor(recorded: RecordedEvent): Promise<Request | null> {
    switch (recorded.type) {
      case 'LowBalanceAlerted': {
        const d = (recorded as unknown as LowBalanceAlerted).data;
        return {
          to: await emailOf(d.accountId),
          accountId: d.accountId,
          template: {
            kind: 'low_balance',
            environment: d.environment,
            smsLeft: d.smsLeft,
            threshold: d.threshold,
          },
        };
      }
      case 'AutoTopUpFailed': {
        const d = (recorded as unknown as AutoTopUpFailed).data;
        return {
          to: await emailOf(d.accountId),
          accountId: d.accountId,
          template: {
            kind: 'auto_topup_failed',
            environment: d.environment,
            packageId: d.packageId,
            reason: d.reason,
            failuresInARow: d.failuresInARow,
            disabled: d.disabled,
          },
        };
      }
      case 'CheckoutSucceeded':
        return receipt(recorded);
      case 'SenderIdApproved':
      case 'SenderIdRejected': {
        const d = (recorded as unknown as SenderIdApproved | SenderIdRejected).data;
        return {
          to: await emailOf(d.accountId),
          accountId: d.accountId,
          template: {
            kind: 'sender_id_decided',
            senderId: d.senderId,
            verdict: recorded.type === 'SenderIdApproved' ? 'approved' : 'rejected',
            reason: 'reason' in d ? d.reason : null,
          },
        };
      }
      case 'PasswordResetRequested': {
        const d = (recorded as unknown as PasswordResetRequested).data;
        return {
          to: d.email,
          accountId: d.accountId,
          template: { kind: 'password_reset', sealedToken: d.sealedToken, expiresAt: d.expiresAt },
        };
      }
      case 'MemberInvited': {
        const d = (recorded as unknown as MemberInvited).data;
        return {
          to: d.email,
          accountId: recorded.streamId.slice(ACCOUNT_STREAM_PREFIX.length),
          template: {
            kind: 'team_invitation',
            inviterEmail: d.actor.type === 'member' ? d.actor.email : 'The operator',
            role: d.role,
            sealedToken: d.sealedToken,
            expiresAt: d.expiresAt,
          },
        };
      }
      default:
        return null;
    }
  }

  /** A checkout's receipt: what was bought, for how much, under which reference. */
  async function receipt(recorded: RecordedEvent): Promise<Request | null> {
    const history = (await events.readStream(recorded.streamId, {
      limit: Number(recorded.revision) + 1,
    })) as unknown as readonly CheckoutEvent[];
    const started = history.find((e): e is CheckoutStarted => e.type === 'CheckoutStarted')?.data;
    const paid = history.find((e): e is PaymentConfirmed => e.type === 'PaymentConfirmed')?.data;
    if (!started || !paid) return null;
    return {
      to: await emailOf(started.accountId),
      accountId: started.accountId,
      template: {
        kind: 'purchase_receipt',
        environment: started.environment,
        checkoutId: started.checkoutId,
        packageId: started.packageId,
        amount: paid.amount,
        currency: paid.currency,
        sms: started.sms,
        reference: paid.reference,
        automatic: started.origin === 'auto_topup',
        paidAt: paid.confirmedAt,
      },
    };
  }

  return {
    name: MAIL_REQUESTS_PROCESS,
    kind: 'process-manager',
    collections: [],
    filter: {
      streamPrefixes: [
        WALLET_CARE_STREAM_PREFIX,
        CHECKOUT_STREAM_PREFIX,
        SENDER_ID_STREAM_PREFIX,
        PASSWORD_RESETS_STREAM_PREFIX,
        ACCOUNT_STREAM_PREFIX,
      ],
      eventTypes: [
        'LowBalanceAlerted',
        'AutoTopUpFailed',
        'CheckoutSucceeded',
        'SenderIdApproved',
        'SenderIdRejected',
        'PasswordResetRequested',
        'MemberInvited',
      ],
    },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      const request = await requestFor(recorded);
      if (!request) return;
      if (!request.to) {
        logger.error(
          `${recorded.type} at ${recorded.position}: the account has no e-mail address; no mail sent`,
        );
        return;
      }
      const queued: MailQueued['data'] = {
        mailId: mailIdFor(recorded),
        to: request.to,
        accountId: request.accountId,
        template: request.template,
        cause: {
          streamId: recorded.streamId,
          revision: recorded.revision.toString(),
          position: recorded.position.toString(),
        },
        queuedAt: recorded.recordedAt.toISOString(),
      };
      view.afterBatch(() => mails.queue(queued));
    },
  };
}
