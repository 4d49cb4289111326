import type { PDU } from 'smpp';
import type { CarrierInbound, CarrierReceipt, ReceiptSink } from '../../ports/carrier.port';
import { deliverSmView, parseDeliveryReceipt } from './delivery-receipt';
import { inboundFromDeliverSm } from './inbound-sms';
import type { SmppConnection } from './smpp-connection';
import { CarrierLogger, errorText } from './smpp-link';
import { SmppStatus } from './smpp-status';

/**
 * Answers every deliver_sm (and data_sm), reports delivery receipts to the sink, and hands it
 * the others, mobile-originated messages (replies, STOP), as inbound messages.
 *
 * A receipt (or inbound message) is answered after the sink has recorded it, so a crash before that makes the SMSC
 * deliver it again. If the sink fails or takes longer than receiptTimeoutMs, the answer is
 * ESME_RX_T_APPN (temporary application error) and the SMSC retries later. Garbage and
 * intermediate receipts (ACCEPTD, ENROUTE) are answered ESME_ROK and dropped. Nothing here throws into the connection.
 */
export class DeliverSmHandler {
  constructor(
    private readonly carrier: string,
    private readonly sink: () => ReceiptSink | null,
    private readonly logger: CarrierLogger,
    private readonly receiptTimeoutMs: number,
  ) {}

  async handle(connection: SmppConnection, pdu: PDU): Promise<void> {
    let status: number = SmppStatus.ESME_ROK;
    try {
      const parsed = parseDeliveryReceipt(deliverSmView(pdu), this.carrier, new Date());
      if (parsed.kind === 'receipt') {
        status = await this.record(parsed.receipt);
      } else if (parsed.kind === 'invalid') {
        this.logger.warn(`Ignoring a malformed delivery receipt: ${parsed.reason}`);
      } else if (parsed.kind === 'intermediate') {
        this.logger.debug?.(`Intermediate receipt ${parsed.carrierStatus} for ${parsed.carrierMessageId}`);
      } else {
        const inbound = inboundFromDeliverSm(pdu, this.carrier);
        if (inbound) status = await this.recordInbound(inbound);
        else this.logger.warn(`Ignoring a ${pdu.command} without a sender, recipient or text`);
      }
    } catch (error) {
      this.logger.error(`Cannot handle ${pdu.command}: ${errorText(error)}`);
    }
    connection.respond(pdu, status === SmppStatus.ESME_ROK ? {} : { command_status: status });
  }

  private record(receipt: CarrierReceipt): Promise<number> {
    const ids = receipt.carrierMessageIdCandidates.join('|');
    return this.deliver((sink) => sink.receipt(receipt), `receipt ${receipt.carrierStatus} for ${ids}`);
  }

  private recordInbound(inbound: CarrierInbound): Promise<number> {
    return this.deliver(
      (sink) => (sink.inbound ? sink.inbound(inbound) : Promise.resolve()),
      `inbound message from ${inbound.from} to ${inbound.to}`,
    );
  }

  /** ESME_ROK once the sink recorded it; ESME_RX_T_APPN (the SMSC retries) when it cannot, in time. */
  private async deliver(record: (sink: ReceiptSink) => Promise<void>, what: string): Promise<number> {
    const sink = this.sink();
    if (!sink) return SmppStatus.ESME_RX_T_APPN;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        record(sink),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('receipt sink timed out')), this.receiptTimeoutMs);
        }),
      ]);
      return SmppStatus.ESME_ROK;
    } catch (error) {
      this.logger.error(`Cannot record ${what}: ${errorText(error)}`);
      return SmppStatus.ESME_RX_T_APPN;
    } finally {
      clearTimeout(timer);
    }
  }
}
