import type { PDU } from 'smpp';
import type { CarrierReceipt, ReceiptSink } from '../../ports/carrier.port';
import { deliverSmView, parseDeliveryReceipt } from './delivery-receipt';
import type { SmppConnection } from './smpp-connection';
import { CarrierLogger, errorText } from './smpp-link';
import { SmppStatus } from './smpp-status';

/**
 * Answers every deliver_sm (and data_sm) and reports delivery receipts to the sink.
 *
 * A receipt is answered after the sink has recorded it, so a crash before that makes the SMSC
 * deliver it again. If the sink fails or takes longer than receiptTimeoutMs, the answer is
 * ESME_RX_T_APPN (temporary application error) and the SMSC retries later. Garbage,
 * intermediate receipts (ACCEPTD, ENROUTE) and mobile-originated messages are answered
 * ESME_ROK and dropped. Nothing here throws into the connection.
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
        this.logger.debug?.(`Ignoring a ${pdu.command} that is not a delivery receipt`);
      }
    } catch (error) {
      this.logger.error(`Cannot handle ${pdu.command}: ${errorText(error)}`);
    }
    connection.respond(pdu, status === SmppStatus.ESME_ROK ? {} : { command_status: status });
  }

  private async record(receipt: CarrierReceipt): Promise<number> {
    const sink = this.sink();
    if (!sink) return SmppStatus.ESME_RX_T_APPN;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sink.receipt(receipt),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('receipt sink timed out')), this.receiptTimeoutMs);
        }),
      ]);
      return SmppStatus.ESME_ROK;
    } catch (error) {
      const ids = receipt.carrierMessageIdCandidates.join('|');
      this.logger.error(`Cannot record receipt ${receipt.carrierStatus} for ${ids}: ${errorText(error)}`);
      return SmppStatus.ESME_RX_T_APPN;
    } finally {
      clearTimeout(timer);
    }
  }
}
