import { AddressInfo } from 'net';
import { createServer, PDU, PduOptions, Server, Session } from 'smpp';
import { SmppConnection } from './smpp-connection';
import { smppStatusCode, SmppStatus, smppStatusName } from './smpp-status';
import { outcomeFor, OutcomeRule, ReceiptStat, SimulatedOutcome } from './smsc-outcome-rules';
import {
  receiptDeliverSm,
  ReceiptIdFormat,
  ReceiptStyle,
  ReceiptStyleOption,
  receiptStyleFor,
  receiptWrittenId,
} from './smsc-receipt.builder';
import { capturePdus, parseSubmitSm, SubmitSmFields } from './smsc-submission';

/**
 * An SMSC for tests and local runs, on the same `smpp` library: binds transceivers with the
 * configured credentials, answers enquire_link, records every submit_sm byte for byte, and
 * sends delivery receipts (one per part) chosen by destination (see smsc-outcome-rules.ts).
 *
 * Message ids are issued in hex ('A1B2C3…') or decimal; receipts write them as issued, in
 * decimal, in hex, or alternating, so hex/decimal matching gets exercised. Receipts that cannot
 * be delivered (no bound session, connection dropped, non-OK deliver_sm_resp) are retried.
 * Test controls: submissions(), submissionsTo(), receiptsSent(), dropConnections(),
 * sendDeliverSm(), sendInbound(), configure(), bindCount, enquireLinkCount, close().
 */
export type { OutcomeRule, ReceiptStat, SimulatedOutcome } from './smsc-outcome-rules';
export type { ReceiptIdFormat, ReceiptStyle, ReceiptStyleOption } from './smsc-receipt.builder';

export interface SmscSimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Credentials a bind must present. Default 'test' / 'test'. */
  systemId?: string;
  password?: string;
  /** Delay before a receipt is sent. Default 50. */
  receiptDelayMs?: number;
  /** Tried before the defaults (…0000001 delivered, …02 undeliverable, …03 expired, …04 rejected, …05 throttled twice). */
  rules?: readonly OutcomeRule[];
  /** Default 'alternate': text-only and TLV-only receipts in turn. */
  receiptStyle?: ReceiptStyleOption;
  /** Default 'hex'. */
  messageIdFormat?: 'hex' | 'decimal';
  /** Default 'alternate': pairs of receipts in decimal, then as issued. */
  receiptIdFormat?: ReceiptIdFormat;
  /** Answer enquire_link (default true); false simulates a dead link that still looks open. */
  answerEnquireLink?: boolean;
  /** Attempts per receipt before it is dropped. Default 5. */
  receiptAttempts?: number;
  logger?: { log(message: string): void };
  /** A PEM key and certificate: the simulator speaks SMPP over TLS (smpps://). */
  tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
}

export interface RecordedSubmission extends SubmitSmFields {
  /** 1-based order of arrival. */
  readonly index: number;
  readonly sessionId: number;
  /** The status name the simulator answered (ESME_ROK, ESME_RTHROTTLED, …), or 'NO_RESPONSE'. */
  readonly status: string;
  /** The message id issued, when accepted. */
  readonly messageId: string | null;
  readonly receivedAt: Date;
}

export interface SentReceipt {
  readonly messageId: string;
  readonly writtenId: string;
  readonly destination: string;
  readonly stat: ReceiptStat;
  readonly style: ReceiptStyle;
  /** deliver_sm_resp command_status name. */
  readonly response: string;
}

interface SimSession {
  readonly id: number;
  readonly connection: SmppConnection;
  bound: boolean;
  lastPdu: () => Buffer | null;
}

interface ReceiptJob {
  readonly submission: RecordedSubmission;
  readonly stat: ReceiptStat;
  readonly err: string;
  readonly number: number;
  attempts: number;
}

const FIRST_MESSAGE_ID = 0xa1b2c3;

export class SmscSimulator {
  private readonly settings: Required<Omit<SmscSimulatorOptions, 'logger' | 'tls'>>;
  private readonly server: Server;
  private readonly sessions = new Map<number, SimSession>();
  private readonly recorded: RecordedSubmission[] = [];
  private readonly receipts: SentReceipt[] = [];
  private readonly waiting: ReceiptJob[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly throttleCounts = new Map<string, number>();
  private nextSessionId = 1;
  private nextMessageId = FIRST_MESSAGE_ID;
  private receiptCount = 0;
  private binds = 0;
  private enquireLinks = 0;
  private closed = false;

  constructor(private readonly options: SmscSimulatorOptions = {}) {
    this.settings = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      systemId: options.systemId ?? 'test',
      password: options.password ?? 'test',
      receiptDelayMs: options.receiptDelayMs ?? 50,
      rules: options.rules ?? [],
      receiptStyle: options.receiptStyle ?? 'alternate',
      messageIdFormat: options.messageIdFormat ?? 'hex',
      receiptIdFormat: options.receiptIdFormat ?? 'alternate',
      receiptAttempts: options.receiptAttempts ?? 5,
      answerEnquireLink: options.answerEnquireLink ?? true,
    };
    this.server = options.tls
      ? createServer({ key: options.tls.key, cert: options.tls.cert }, (session) => this.accept(session))
      : createServer((session) => this.accept(session));
  }

  listen(): Promise<this> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.settings.port, this.settings.host, () => {
        this.server.off('error', reject);
        resolve(this);
      });
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The URL a carrier adapter connects with (CARRIER_<NAME>_URL). */
  url(query = ''): string {
    const { systemId, password, host } = this.settings;
    const auth = `${encodeURIComponent(systemId)}:${encodeURIComponent(password)}`;
    const scheme = this.options.tls ? 'smpps' : 'smpp';
    return `${scheme}://${auth}@${host}:${this.port}${query ? `?${query}` : ''}`;
  }

  /** Changes receipt, id and rule settings for what comes next. */
  configure(
    changes: Pick<
      SmscSimulatorOptions,
      | 'receiptStyle'
      | 'receiptIdFormat'
      | 'messageIdFormat'
      | 'receiptDelayMs'
      | 'rules'
      | 'answerEnquireLink'
    >,
  ): void {
    Object.assign(
      this.settings,
      Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    );
  }

  submissions(): readonly RecordedSubmission[] {
    return [...this.recorded];
  }

  submissionsTo(destination: string): readonly RecordedSubmission[] {
    const digits = destination.replace(/^\+/, '');
    return this.recorded.filter((s) => s.destinationAddr === digits);
  }

  receiptsSent(): readonly SentReceipt[] {
    return [...this.receipts];
  }

  get bindCount(): number {
    return this.binds;
  }

  get enquireLinkCount(): number {
    return this.enquireLinks;
  }

  get boundSessionCount(): number {
    return [...this.sessions.values()].filter((s) => s.bound && s.connection.isOpen).length;
  }

  /** Destroys every open session, as a network failure would. */
  dropConnections(): void {
    for (const session of this.sessions.values()) session.connection.destroy();
  }

  /** Sends any deliver_sm to a bound session; resolves with the deliver_sm_resp status name. */
  async sendDeliverSm(fields: PduOptions): Promise<string> {
    const session = this.boundSession();
    if (!session) throw new Error('No bound session to deliver to');
    const response = await session.connection.request('deliver_sm', fields, 10_000);
    return smppStatusName(response.command_status);
  }

  /**
   * A mobile-originated message (a reply, a STOP) to a bound session, as an SMSC delivers one:
   * esm_class 0, international numbers without their plus, GSM-7 text (data_coding 0) or UCS-2
   * (data_coding 8) when it needs it. Resolves with the deliver_sm_resp status name.
   */
  sendInbound(message: { from: string; to: string; message: string }): Promise<string> {
    const address = (number: string) => {
      const international = number.startsWith('+');
      return { addr: number.replace(/^\+/, ''), ton: international ? 1 : 3, npi: international ? 1 : 0 };
    };
    const from = address(message.from);
    const to = address(message.to);
    const gsm = /^[\x20-\x7e\n\r]*$/.test(message.message);
    return this.sendDeliverSm({
      source_addr_ton: from.ton,
      source_addr_npi: from.npi,
      source_addr: from.addr,
      dest_addr_ton: to.ton,
      dest_addr_npi: to.npi,
      destination_addr: to.addr,
      esm_class: 0,
      data_coding: gsm ? 0 : 8,
      short_message: message.message,
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(session: Session): void {
    const sim: SimSession = {
      id: this.nextSessionId++,
      connection: new SmppConnection(session),
      bound: false,
      lastPdu: capturePdus(session),
    };
    this.sessions.set(sim.id, sim);
    sim.connection.onClose(() => this.sessions.delete(sim.id));
    if (this.closed) {
      sim.connection.destroy();
      return;
    }
    for (const bind of ['bind_transceiver', 'bind_transmitter', 'bind_receiver']) {
      sim.connection.on(bind, (pdu) => this.onBind(sim, pdu));
    }
    sim.connection.on('enquire_link', (pdu) => {
      this.enquireLinks++;
      if (this.settings.answerEnquireLink) sim.connection.respond(pdu);
    });
    sim.connection.on('unbind', (pdu) => {
      sim.bound = false;
      sim.connection.respond(pdu);
      void sim.connection.close();
    });
    sim.connection.on('submit_sm', (pdu) => this.onSubmit(sim, pdu));
    sim.connection.on('unknown', (pdu) => sim.connection.respond(pdu));
  }

  private onBind(sim: SimSession, pdu: PDU): void {
    if (sim.bound) {
      sim.connection.respond(pdu, { command_status: smppStatusCode('ESME_RALYBND') });
      return;
    }
    if (pdu.system_id !== this.settings.systemId || pdu.password !== this.settings.password) {
      this.options.logger?.log(`Bind refused for system_id "${String(pdu.system_id)}"`);
      sim.connection.respond(pdu, { command_status: SmppStatus.ESME_RBINDFAIL });
      void sim.connection.close();
      return;
    }
    sim.bound = true;
    this.binds++;
    sim.connection.respond(pdu, { system_id: 'SMSCSIM' });
    this.options.logger?.log(`Bound ${String(pdu.command)} session ${sim.id} (${String(pdu.system_id)})`);
    for (const job of this.waiting.splice(0)) this.scheduleReceipt(job, 0);
  }

  private onSubmit(sim: SimSession, pdu: PDU): void {
    if (!sim.bound) {
      sim.connection.respond(pdu, { command_status: SmppStatus.ESME_RINVBNDSTS });
      return;
    }
    const raw = sim.lastPdu();
    let fields: SubmitSmFields;
    try {
      if (!raw) throw new Error('raw PDU not captured');
      fields = parseSubmitSm(raw);
    } catch (error) {
      this.options.logger?.log(
        `Malformed submit_sm: ${error instanceof Error ? error.message : String(error)}`,
      );
      sim.connection.respond(pdu, { command_status: smppStatusCode('ESME_RINVMSGLEN') });
      return;
    }
    const outcome = this.resolveOutcome(fields.destinationAddr);
    const record = (status: string, messageId: string | null): RecordedSubmission => {
      const submission = {
        ...fields,
        index: this.recorded.length + 1,
        sessionId: sim.id,
        status,
        messageId,
        receivedAt: new Date(),
      };
      this.recorded.push(submission);
      return submission;
    };
    if (outcome.type === 'hang') {
      record('NO_RESPONSE', null);
      return;
    }
    if (outcome.type === 'reject' || outcome.type === 'throttle') {
      const name = outcome.type === 'reject' ? outcome.status : 'ESME_RTHROTTLED';
      record(name, null);
      sim.connection.respond(pdu, { command_status: smppStatusCode(name) ?? SmppStatus.ESME_RSYSERR });
      return;
    }
    const messageId = this.issueMessageId();
    const submission = record('ESME_ROK', messageId);
    sim.connection.respond(pdu, { message_id: messageId });
    if (outcome.type === 'receipt') {
      const job = {
        submission,
        stat: outcome.stat,
        err: outcome.err ?? '000',
        number: ++this.receiptCount,
        attempts: 0,
      };
      this.scheduleReceipt(job, this.settings.receiptDelayMs);
    }
  }

  /** Applies throttling counts: a 'throttle' outcome is returned while the number still has throttled tries left. */
  private resolveOutcome(destination: string): SimulatedOutcome {
    let outcome = outcomeFor(destination, this.settings.rules);
    while (outcome.type === 'throttle') {
      const tries = (this.throttleCounts.get(destination) ?? 0) + 1;
      this.throttleCounts.set(destination, tries);
      if (tries <= outcome.times) return outcome;
      outcome = outcome.then;
    }
    return outcome;
  }

  private issueMessageId(): string {
    const value = this.nextMessageId++;
    return this.settings.messageIdFormat === 'hex' ? value.toString(16).toUpperCase() : String(value);
  }

  private scheduleReceipt(job: ReceiptJob, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.deliver(job);
    }, delayMs);
    this.timers.add(timer);
  }

  private async deliver(job: ReceiptJob): Promise<void> {
    const { submission } = job;
    const session = this.sessions.get(submission.sessionId);
    const target = session?.bound && session.connection.isOpen ? session : this.boundSession();
    if (!target) {
      this.waiting.push(job);
      return;
    }
    const style = receiptStyleFor(this.settings.receiptStyle, job.number);
    const writtenId = receiptWrittenId(
      submission.messageId ?? '',
      this.settings.messageIdFormat,
      this.settings.receiptIdFormat,
      job.number,
    );
    const fields = receiptDeliverSm({
      submission,
      writtenId,
      stat: job.stat,
      err: job.err,
      style,
      submittedAt: submission.receivedAt,
      doneAt: new Date(),
    });
    job.attempts++;
    let response: string;
    try {
      response = smppStatusName(
        (await target.connection.request('deliver_sm', fields, 10_000)).command_status,
      );
    } catch (error) {
      response = error instanceof Error ? error.name : 'ERROR';
    }
    this.receipts.push({
      messageId: submission.messageId ?? '',
      writtenId,
      destination: submission.destinationAddr,
      stat: job.stat,
      style,
      response,
    });
    if (response !== 'ESME_ROK' && job.attempts < this.settings.receiptAttempts) {
      this.scheduleReceipt(job, Math.max(this.settings.receiptDelayMs, 100));
    }
  }

  private boundSession(): SimSession | undefined {
    return [...this.sessions.values()].find((s) => s.bound && s.connection.isOpen);
  }
}
