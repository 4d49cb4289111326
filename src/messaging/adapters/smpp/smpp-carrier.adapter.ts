import { Logger } from '@nestjs/common';
import type { PDU, PduOptions } from 'smpp';
import type { Carrier, CarrierReceipt, OutboundMessage, ReceiptSink, SubmitResult } from '../../ports/carrier.port';
import { canonicalCarrierMessageId } from './carrier-message-id';
import { deliverSmView, parseDeliveryReceipt } from './delivery-receipt';
import { SubmitWindow, TokenBucket } from './flow-control';
import { ConnectionClosedError, pduString, ResponseTimeoutError, SmppConnection } from './smpp-connection';
import { SmppStatus, smppStatusName } from './smpp-status';
import type { SmppConnectionConfig } from './smpp-url';
import { buildSubmitSms } from './submit-sm.builder';

/** What the adapter logs through; Nest's Logger fits. */
export interface CarrierLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export interface SmppCarrierOptions {
  logger?: CarrierLogger;
  /** First reconnect delay; doubles per failed attempt up to reconnectMaxDelayMs. Default 1000. */
  reconnectBaseDelayMs?: number;
  /** Default 60000. */
  reconnectMaxDelayMs?: number;
  /** enquire_link keep-alive period. Default 30000. */
  enquireLinkIntervalMs?: number;
  /** How long bind, enquire_link, submit_sm and unbind wait for their response. Default 10000. */
  responseTimeoutMs?: number;
  /** TCP connect timeout. Default 10000. */
  connectTimeoutMs?: number;
  /** Longest a submit waits for a window slot or a throughput token before answering retry. Default 5000. */
  maxQueueWaitMs?: number;
  /** Throttled parts are retried in place this many times before submit answers retry. Default 1. */
  throttleRetries?: number;
  /** Delay before retrying after ESME_RTHROTTLED (in place, and the retry afterMs). Default 1000. */
  throttledRetryMs?: number;
  /** retry afterMs after ESME_RMSGQFUL. Default 5000. */
  queueFullRetryMs?: number;
  /** retry afterMs while not bound, or when a connection drops mid-submit. Default 2000. */
  disconnectedRetryMs?: number;
  /** How long the sink may take to record a receipt before it is answered ESME_RX_T_APPN. Default 30000. */
  receiptTimeoutMs?: number;
  /** On stop, how long to wait for in-flight submits before unbinding. Default 5000. */
  drainTimeoutMs?: number;
  /** Token bucket burst (PDUs that may go back to back). Default 1: evenly paced at tps. */
  burst?: number;
}

type PartOutcome =
  | Exclude<SubmitResult, { outcome: 'accepted' }>
  | { readonly outcome: 'part-accepted'; readonly carrierMessageId: string }
  | { readonly outcome: 'throttled'; readonly afterMs: number; readonly reason: string };

const INTERFACE_VERSION_34 = 0x34;

/**
 * A live carrier over SMPP v3.4: one bind_transceiver session, kept alive with enquire_link and
 * re-established with capped exponential backoff. Submits respect the URL's window and tps.
 *
 * Delivery is at least once: a submit whose response never arrives (connection dropped,
 * timeout) answers retry, never accepted, so a message may reach the handset twice but is never
 * silently lost. The same holds for multi-part messages: if part 1 was accepted and a later part
 * must be retried, the whole message is retried. If a later part is refused for good, the
 * result is rejected even though earlier parts went out (the message is not billed as sent).
 *
 * deliver_sm is answered after the sink has recorded the receipt; if the sink fails or is too
 * slow, the answer is ESME_RX_T_APPN so the SMSC delivers the receipt again later. Garbage,
 * intermediate receipts and mobile-originated messages are answered ESME_ROK and dropped.
 */
export class SmppCarrier implements Carrier {
  private readonly logger: CarrierLogger;
  private readonly settings: Required<Omit<SmppCarrierOptions, 'logger'>>;
  private readonly window: SubmitWindow;
  private readonly bucket: TokenBucket;
  private sink: ReceiptSink | null = null;
  private running = false;
  private bound: SmppConnection | null = null;
  private connecting: SmppConnection | null = null;
  private attempt: Promise<void> | null = null;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private enquireTimer: NodeJS.Timeout | null = null;
  private reference = Math.floor(Math.random() * 256);

  constructor(
    readonly name: string,
    private readonly config: SmppConnectionConfig,
    options: SmppCarrierOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(`carrier:${name}`);
    this.settings = {
      reconnectBaseDelayMs: options.reconnectBaseDelayMs ?? 1000,
      reconnectMaxDelayMs: options.reconnectMaxDelayMs ?? 60_000,
      enquireLinkIntervalMs: options.enquireLinkIntervalMs ?? 30_000,
      responseTimeoutMs: options.responseTimeoutMs ?? 10_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      maxQueueWaitMs: options.maxQueueWaitMs ?? 5000,
      throttleRetries: options.throttleRetries ?? 1,
      throttledRetryMs: options.throttledRetryMs ?? 1000,
      queueFullRetryMs: options.queueFullRetryMs ?? 5000,
      disconnectedRetryMs: options.disconnectedRetryMs ?? 2000,
      receiptTimeoutMs: options.receiptTimeoutMs ?? 30_000,
      drainTimeoutMs: options.drainTimeoutMs ?? 5000,
      burst: options.burst ?? 1,
    };
    this.window = new SubmitWindow(config.window);
    this.bucket = new TokenBucket(config.tps, this.settings.burst);
  }

  /** True while a bind_transceiver session is up. */
  isBound(): boolean {
    return this.bound !== null && this.bound.isOpen;
  }

  /** Connects and binds; resolves after the first attempt, successful or not (failures are retried in the background). */
  async start(sink: ReceiptSink): Promise<void> {
    this.sink = sink;
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    await this.connectAndBind();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.clearTimers();
    this.connecting?.destroy();
    await this.attempt;
    const connection = this.bound;
    this.bound = null;
    if (!connection) return;
    const drainUntil = Date.now() + this.settings.drainTimeoutMs;
    while (this.window.used > 0 && connection.isOpen && Date.now() < drainUntil) await sleep(20);
    try {
      await connection.request('unbind', {}, Math.min(this.settings.responseTimeoutMs, 5000));
    } catch {
      // Gone already, or no answer: close anyway.
    }
    await connection.close();
    this.logger.log(`Unbound from ${this.where()}`);
  }

  async submit(message: OutboundMessage): Promise<SubmitResult> {
    if (!this.running) return retry(this.settings.disconnectedRetryMs, `carrier ${this.name} is not started`);
    const built = buildSubmitSms(message, this.nextReference());
    if (!built.ok) return { outcome: 'rejected', errorCode: built.errorCode, errorMessage: built.errorMessage };
    if (!this.isBound()) return retry(this.settings.disconnectedRetryMs, `not bound to ${this.where()}`);

    const total = built.parts.length;
    const pending: Array<Promise<PartOutcome>> = [];
    let failed = false;
    for (const fields of built.parts) {
      if (failed) break;
      const slot = await this.acquireSlot();
      if ('outcome' in slot) {
        pending.push(Promise.resolve(slot));
        break;
      }
      const part = this.sendPart(fields, slot.release).then((outcome) => {
        if (outcome.outcome !== 'part-accepted') failed = true;
        return outcome;
      });
      pending.push(part);
    }
    return combine(await Promise.all(pending), total);
  }

  private async acquireSlot(): Promise<{ release: () => void } | Extract<SubmitResult, { outcome: 'retry' }>> {
    const release = await this.window.acquire(this.settings.maxQueueWaitMs);
    if (!release) return retry(this.settings.maxQueueWaitMs, `submit window of ${this.config.window} is full`);
    const waitMs = this.bucket.reserve(this.settings.maxQueueWaitMs);
    if (waitMs === null) {
      release();
      return retry(Math.max(this.bucket.waitEstimateMs(), 100), `throughput limit of ${this.config.tps}/s reached`);
    }
    if (waitMs > 0) await sleep(waitMs);
    return { release };
  }

  /** Sends one part, retrying in place after ESME_RTHROTTLED up to throttleRetries times. */
  private async sendPart(fields: PduOptions, release: () => void): Promise<PartOutcome> {
    let outcome = await this.sendOnce(fields, release);
    for (let tries = 0; tries < this.settings.throttleRetries && outcome.outcome === 'throttled'; tries++) {
      await sleep(this.settings.throttledRetryMs);
      const slot = await this.acquireSlot();
      if ('outcome' in slot) return slot;
      outcome = await this.sendOnce(fields, slot.release);
    }
    return outcome;
  }

  private async sendOnce(fields: PduOptions, release: () => void): Promise<PartOutcome> {
    try {
      const connection = this.bound;
      if (!connection || !this.running) return retry(this.settings.disconnectedRetryMs, `not bound to ${this.where()}`);
      const response = await connection.request('submit_sm', fields, this.settings.responseTimeoutMs);
      return this.partOutcome(response);
    } catch (error) {
      if (error instanceof ConnectionClosedError) {
        return retry(this.settings.disconnectedRetryMs, 'connection dropped before submit_sm_resp');
      }
      if (error instanceof ResponseTimeoutError) return retry(this.settings.disconnectedRetryMs, error.message);
      this.logger.error(`submit_sm failed: ${describe(error)}`);
      return retry(this.settings.disconnectedRetryMs, `submit_sm failed: ${describe(error)}`);
    } finally {
      release();
    }
  }

  private partOutcome(response: PDU): PartOutcome {
    const status = response.command_status;
    if (status === SmppStatus.ESME_ROK) {
      const id = pduString(response, 'message_id') ?? '';
      if (id === '') this.logger.warn('submit_sm_resp without a message_id: its receipt cannot be matched');
      return { outcome: 'part-accepted', carrierMessageId: canonicalCarrierMessageId(id) };
    }
    const name = smppStatusName(status);
    if (status === SmppStatus.ESME_RTHROTTLED) {
      return { outcome: 'throttled', afterMs: this.settings.throttledRetryMs, reason: `${name}: throttled` };
    }
    if (status === SmppStatus.ESME_RMSGQFUL) return retry(this.settings.queueFullRetryMs, `${name}: queue full`);
    return { outcome: 'rejected', errorCode: name, errorMessage: `submit_sm refused with ${name}` };
  }

  private async connectAndBind(): Promise<void> {
    const run = this.bindOnce();
    this.attempt = run;
    try {
      await run;
    } finally {
      if (this.attempt === run) this.attempt = null;
    }
  }

  private async bindOnce(): Promise<void> {
    this.reconnectTimer = null;
    if (!this.running) return;
    const connection = SmppConnection.open(this.config.host, this.config.port);
    this.connecting = connection;
    connection.on('enquire_link', (pdu) => connection.respond(pdu));
    connection.on('unbind', (pdu) => {
      connection.respond(pdu);
      void connection.close();
    });
    connection.on('deliver_sm', (pdu) => void this.onDeliverSm(connection, pdu));
    connection.on('data_sm', (pdu) => void this.onDeliverSm(connection, pdu));
    connection.on('unknown', (pdu) => connection.respond(pdu));
    try {
      await connection.whenConnected(this.settings.connectTimeoutMs);
      const response = await connection.request(
        'bind_transceiver',
        {
          system_id: this.config.systemId,
          password: this.config.password,
          system_type: this.config.systemType,
          interface_version: INTERFACE_VERSION_34,
          addr_ton: 0,
          addr_npi: 0,
          address_range: '',
        },
        this.settings.responseTimeoutMs,
      );
      if (response.command_status !== SmppStatus.ESME_ROK) {
        throw new Error(`bind_transceiver refused with ${smppStatusName(response.command_status)}`);
      }
      if (!this.running || !connection.isOpen) throw new ConnectionClosedError('closed while binding');
    } catch (error) {
      this.connecting = null;
      connection.destroy();
      if (this.running) {
        this.logger.warn(`Cannot bind to ${this.where()}: ${describe(error)}`);
        this.scheduleReconnect();
      }
      return;
    }
    this.connecting = null;
    this.bound = connection;
    this.failures = 0;
    this.logger.log(`Bound as transceiver to ${this.where()}`);
    connection.onClose((error) => this.onDropped(connection, error));
    this.scheduleEnquireLink(connection);
  }

  private onDropped(connection: SmppConnection, error: Error | null): void {
    if (this.bound !== connection) return;
    this.bound = null;
    if (this.enquireTimer) clearTimeout(this.enquireTimer);
    this.enquireTimer = null;
    if (!this.running) return;
    this.logger.warn(`Connection to ${this.where()} dropped${error ? `: ${error.message}` : ''}`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.running || this.reconnectTimer) return;
    const { reconnectBaseDelayMs: base, reconnectMaxDelayMs: max } = this.settings;
    const capped = Math.min(max, base * 2 ** Math.min(this.failures, 30));
    const delay = Math.round(capped * (0.8 + Math.random() * 0.2));
    this.failures++;
    this.logger.log(`Reconnecting to ${this.where()} in ${delay} ms (attempt ${this.failures})`);
    this.reconnectTimer = setTimeout(() => void this.connectAndBind(), delay);
  }

  private scheduleEnquireLink(connection: SmppConnection): void {
    this.enquireTimer = setTimeout(async () => {
      if (this.bound !== connection) return;
      try {
        await connection.request('enquire_link', {}, this.settings.responseTimeoutMs);
        if (this.bound === connection && this.running) this.scheduleEnquireLink(connection);
      } catch (error) {
        if (this.bound !== connection) return;
        this.logger.warn(`enquire_link to ${this.where()} failed (${describe(error)}); dropping the connection`);
        connection.destroy();
      }
    }, this.settings.enquireLinkIntervalMs);
  }

  private async onDeliverSm(connection: SmppConnection, pdu: PDU): Promise<void> {
    let status: number = SmppStatus.ESME_ROK;
    try {
      const parsed = parseDeliveryReceipt(deliverSmView(pdu), this.name, new Date());
      if (parsed.kind === 'receipt') status = await this.record(parsed.receipt);
      else if (parsed.kind === 'invalid') this.logger.warn(`Ignoring a malformed delivery receipt: ${parsed.reason}`);
      else if (parsed.kind === 'intermediate') {
        this.logger.debug?.(`Intermediate receipt ${parsed.carrierStatus} for ${parsed.carrierMessageId}`);
      } else this.logger.debug?.(`Ignoring a ${pdu.command} that is not a delivery receipt`);
    } catch (error) {
      this.logger.error(`Cannot handle ${pdu.command}: ${describe(error)}`);
    }
    connection.respond(pdu, status === SmppStatus.ESME_ROK ? {} : { command_status: status });
  }

  private async record(receipt: CarrierReceipt): Promise<number> {
    const sink = this.sink;
    if (!sink) return SmppStatus.ESME_RX_T_APPN;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sink.receipt(receipt),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('receipt sink timed out')), this.settings.receiptTimeoutMs);
        }),
      ]);
      return SmppStatus.ESME_ROK;
    } catch (error) {
      const ids = receipt.carrierMessageIdCandidates.join('|');
      this.logger.error(`Cannot record receipt ${receipt.carrierStatus} for ${ids}: ${describe(error)}`);
      return SmppStatus.ESME_RX_T_APPN;
    } finally {
      clearTimeout(timer);
    }
  }

  private nextReference(): number {
    this.reference = (this.reference + 1) % 256;
    return this.reference;
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.enquireTimer) clearTimeout(this.enquireTimer);
    this.reconnectTimer = null;
    this.enquireTimer = null;
  }

  private where(): string {
    return `${this.name} (${this.config.systemId}@${this.config.host}:${this.config.port})`;
  }
}

function combine(outcomes: readonly PartOutcome[], total: number): SubmitResult {
  const ids: string[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.outcome === 'part-accepted') {
      ids.push(outcome.carrierMessageId);
    } else if (outcome.outcome === 'rejected') {
      const detail = total > 1 ? ` (part ${index + 1} of ${total}; ${ids.length} earlier part(s) were accepted)` : '';
      return { ...outcome, errorMessage: `${outcome.errorMessage}${detail}` };
    }
  }
  const retries = outcomes.filter(
    (o): o is Extract<PartOutcome, { outcome: 'retry' | 'throttled' }> => o.outcome === 'retry' || o.outcome === 'throttled',
  );
  if (retries.length > 0) {
    return retry(Math.max(...retries.map((r) => r.afterMs)), retries.map((r) => r.reason).join('; '));
  }
  if (ids.length !== total) return retry(1000, 'not every part was submitted');
  return { outcome: 'accepted', carrierMessageIds: ids };
}

function retry(afterMs: number, reason: string): Extract<SubmitResult, { outcome: 'retry' }> {
  return { outcome: 'retry', afterMs, reason };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
