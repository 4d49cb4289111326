import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ReceiveInboundMessage } from '../../compliance/application/commands/receive-inbound-message.command';
import { Inject } from '@nestjs/common';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { MessageMetrics } from '../../shared/metrics/message.metrics';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { finishedBy, messageDecider, recordReceipt } from '../domain/message.decider';
import { messageStream } from '../domain/message.events';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { carrierCallingCode } from '../domain/routing';
import { RecentSubmissions } from './recent-submissions';
import { RouteRegistry } from './route-registry.service';
import type { CarrierInbound, CarrierReceipt, ReceiptSink } from '../ports/carrier.port';
import { MESSAGE_CARRIER_REFS, MESSAGES_PROJECTION } from '../projections/messages.projection';

/**
 * The one inbound path for delivery outcomes (simulated or SMPP): finds the message by the
 * carrier's id and records the receipt with the decider, which ignores duplicates, receipts of
 * finished messages and unknown parts, so a receipt delivered twice never settles twice.
 *
 * A fast carrier's receipt can overtake the dispatcher recording MessageSent (the carrier ids
 * come with it), and once answered the carrier never sends it again. An id this process was
 * just given waits for that recording (RecentSubmissions); any other unknown id is looked up
 * again for up to receiptMatchGraceMs before the receipt is dropped.
 */
@Injectable()
export class DeliveryReceipts implements ReceiptSink {
  private readonly logger = new Logger('receipts');

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly submissions: RecentSubmissions,
    private readonly metrics: MessageMetrics,
    private readonly commands: CommandBus,
    private readonly routes: RouteRegistry,
  ) {}

  async receipt(receipt: CarrierReceipt): Promise<void> {
    let messageId =
      (await this.submissions.messageFor(
        receipt.environment,
        receipt.carrier,
        receipt.carrierMessageIdCandidates,
      )) ??
      receipt.messageId ??
      (await this.lookup(receipt));
    const deadline = Date.now() + this.options.receiptMatchGraceMs;
    for (let pause = 25; !messageId; pause = Math.min(pause * 2, 500)) {
      // MessageSent may be recorded but not yet projected, or (a receipt racing ahead of the
      // submit result) not recorded yet: catch up and look again, for a short while.
      await this.projections.catchUp([MESSAGES_PROJECTION]);
      messageId = await this.lookup(receipt);
      if (messageId || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    if (!messageId) {
      this.logger.warn(
        `receipt from ${receipt.carrier} for unknown id ${receipt.carrierMessageIdCandidates.join('/')} dropped`,
      );
      return;
    }
    const recorded = await this.aggregates.handle(messageStream(messageId), messageDecider, (state) =>
      recordReceipt(state, receipt),
    );
    this.metrics.finished(finishedBy(recorded));
  }

  /**
   * A reply or STOP from a carrier: the compliance context records it (API.md, Compliance),
   * reading a national number by the country of the carrier's routes.
   */
  async inbound(message: CarrierInbound): Promise<void> {
    const { from, to, environment, carrier } = message;
    const countryCallingCode = carrierCallingCode(carrier, await this.routes.operatorRoutes());
    await this.commands.execute(
      new ReceiveInboundMessage({
        from,
        to,
        countryCallingCode,
        message: message.message,
        environment,
        carrier,
      }),
    );
  }

  /** The carrier refs are LIVE messages' only (a TEST receipt names its message). */
  private async lookup(receipt: CarrierReceipt): Promise<string | null> {
    if (receipt.environment !== 'LIVE') return null;
    for (const id of receipt.carrierMessageIdCandidates) {
      const ref = await this.reads.get<{ messageId: string }>(
        MESSAGE_CARRIER_REFS,
        `${receipt.carrier}:${id}`,
      );
      if (ref) return ref.messageId;
    }
    return null;
  }
}
