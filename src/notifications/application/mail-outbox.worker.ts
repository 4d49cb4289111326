import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { InstanceIdentity } from '../../shared/instances/instance-identity';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { SECRET_BOX, SecretBox } from '../../shared/secret-box';
import { renderMail } from '../domain/mail-templates';
import * as mail from '../domain/mail.decider';
import { mailStream } from '../domain/mail.events';
import { MAIL_TRANSPORT, MailTransport, PermanentMailError } from '../ports/mail-transport.port';
import { DUE, MAILS, MailDoc } from '../projections/mail-outbox.projection';
import { MAIL_OPTIONS, MailOptions } from '../notifications.options';

/**
 * Sends the outbox's due mails. A mail is taken with `MailSendStarted` at its stream's exact
 * revision, so of two processes looking at one store only one takes it; the taker sends, then
 * records `MailSent` or `MailAttemptFailed` (retried after a backoff) or, past the retry window or
 * when the server refuses the address for good, `MailAbandoned`, which the operator sees in
 * `mail:outbox --status failed` and in the log. A process that dies holding a mail leaves it to be
 * taken again when its lease runs out (the mail may then go twice, never zero times).
 */
@Injectable()
export class MailOutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('mail-outbox');
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly loop: PollingLoop;
  private stopped = true;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly aggregates: AggregateStore,
    @Inject(MAIL_TRANSPORT) private readonly transport: MailTransport,
    @Inject(MAIL_OPTIONS) private readonly options: MailOptions,
    @Inject(SECRET_BOX) private readonly secrets: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly instance: InstanceIdentity,
    changes: ReadModelChanges,
  ) {
    // Rests while no mail is due; a mail queued (or retried) wakes it through its read model.
    this.loop = new PollingLoop(
      options.pollMs,
      () => this.tick(),
      (error) => this.logger.warn(`mail outbox tick failed: ${error.message}`),
      { restMs: config.idlePollMs, wakeOn: (wake) => changes.on([MAILS], wake) },
    );
  }

  onApplicationBootstrap(): void {
    if (!runsProcessManagersHere(this.config)) return;
    this.stopped = false;
    this.logger.log(`mails go to ${this.transport.name} ${this.transport.describe()}`);
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
    await Promise.allSettled(this.inFlight.values());
    await this.transport.close();
  }

  /**
   * One look at the due mails: starts those due now, up to the concurrency. Answers when the next
   * one falls due (null: none waiting), or nothing while mails are in flight. Exposed for tests.
   */
  async tick(): Promise<NextDue> {
    const room = this.options.concurrency - this.inFlight.size;
    if (room <= 0) return undefined;
    const now = this.clock.now();
    const due = await this.reads.list<MailDoc>(MAILS, {
      partition: DUE,
      order: 'asc',
      limit: room + this.inFlight.size,
    });
    let next: NextDue = due.length === 0 ? null : undefined;
    for (const doc of due) {
      if (this.stopped || this.inFlight.size >= this.options.concurrency) break;
      if (doc.dueAt && Date.parse(doc.dueAt) > now.getTime()) {
        next = Date.parse(doc.dueAt); // sorted by due time: the rest come later
        break;
      }
      if (!doc.dueAt) break;
      if (this.inFlight.has(doc.id)) continue;
      const done = this.attempt(doc.id)
        .catch((error) =>
          this.logger.warn(`mail ${doc.id}: attempt not recorded: ${(error as Error).message}`),
        )
        .finally(() => this.inFlight.delete(doc.id));
      this.inFlight.set(doc.id, done);
    }
    return this.inFlight.size > 0 ? undefined : next;
  }

  /** Takes the mail if it is still due (the stream decides, not the read model), sends it, records how it went. */
  private async attempt(mailId: string): Promise<void> {
    const stream = mailStream(mailId);
    const claimed = await this.aggregates.handle(stream, mail.mailDecider, (m) =>
      mail.claim(m, { instance: this.instance.id, now: this.clock.now(), leaseMs: this.options.leaseMs }),
    );
    if (!claimed.ok || claimed.value.events.length === 0) return; // not due, or another process took it
    const state = claimed.value.state;
    const queued = state.queued!;
    const attempt = state.attempts;
    let outcome: (m: mail.Mail) => ReturnType<typeof mail.sent>;
    try {
      const content = renderMail(queued.template, {
        publicUrl: this.config.publicUrl,
        open: (sealed) => this.secrets.open(sealed),
      });
      const delivery = await this.transport.send({
        id: mailId,
        from: this.options.from,
        to: queued.to,
        ...content,
      });
      outcome = (m) =>
        mail.sent(m, {
          attempt,
          transport: this.transport.name,
          reference: delivery.reference,
          now: this.clock.now(),
        });
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      const permanent = error instanceof PermanentMailError;
      outcome = (m) =>
        mail.failed(m, {
          attempt,
          error: message,
          permanent,
          policy: this.options.retry,
          now: this.clock.now(),
        });
    }
    const recorded = await this.aggregates.handle(stream, mail.mailDecider, outcome);
    if (!recorded.ok) return;
    const after = recorded.value.state;
    if (after.status === 'abandoned') {
      this.logger.error(
        `mail ${mailId} (${queued.template.kind}, account ${queued.accountId}) given up: ${after.lastError}`,
      );
    } else if (after.status === 'pending') {
      this.logger.warn(
        `mail ${mailId} attempt ${attempt} failed (${after.lastError}); next at ${after.nextAttemptAt}`,
      );
    }
  }
}
