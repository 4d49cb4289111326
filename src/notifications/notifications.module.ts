import { Inject, Module } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { EVENT_STORE, EventStore } from '../shared/event-store/event-store.port';
import { ProjectionsService } from '../shared/projections/projections.service';
import { OutboxDirMailTransport } from './adapters/outbox-dir-mail-transport.adapter';
import { SmtpMailTransport } from './adapters/smtp-mail-transport.adapter';
import { MailOutboxWorker } from './application/mail-outbox.worker';
import { MailQueue } from './application/mail-queue.service';
import { mailRequestsProcess } from './application/mail-requests.process';
import { MailOutboxHandler } from './application/queries/mail-outbox.handler';
import { MAIL_OPTIONS, MailOptions } from './notifications.options';
import { MAIL_TRANSPORT } from './ports/mail-transport.port';
import { mailOutboxProjection } from './projections/mail-outbox.projection';

/**
 * Notifications: mails caused by events in the log (low balance, receipts, auto top-up failures,
 * sender ID decisions, password resets), queued once per cause and sent by the outbox worker
 * through the mail port: SMTP when SMTP_URL is set, else .eml files in DATA_DIR/outbox.
 */
@Module({
  providers: [
    { provide: MAIL_OPTIONS, useFactory: (config: AppConfig) => config.mail, inject: [APP_CONFIG] },
    {
      provide: MAIL_TRANSPORT,
      useFactory: (options: MailOptions) =>
        options.smtpUrl
          ? new SmtpMailTransport({ url: options.smtpUrl, from: options.from, timeoutMs: options.timeoutMs })
          : new OutboxDirMailTransport(options.outboxDir, options.from),
      inject: [MAIL_OPTIONS],
    },
    MailQueue,
    MailOutboxWorker,
    MailOutboxHandler,
  ],
})
export class NotificationsModule {
  constructor(
    projections: ProjectionsService,
    @Inject(EVENT_STORE) events: EventStore,
    queries: QueryBus,
    mails: MailQueue,
  ) {
    projections.register(mailOutboxProjection, mailRequestsProcess(events, queries, mails));
  }
}
