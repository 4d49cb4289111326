import { readFileSync } from 'node:fs';
import { ConnectionClosedError, SmppConnection } from './smpp-connection';
import { SmppStatus, smppStatusName } from './smpp-status';
import type { SmppConnectionConfig } from './smpp-url';

/** What the SMPP code logs through; Nest's Logger fits. */
export interface CarrierLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug?(message: string): void;
}

export interface SmppLinkSettings {
  readonly reconnectBaseDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  readonly enquireLinkIntervalMs: number;
  readonly responseTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

const INTERFACE_VERSION_34 = 0x34;

/**
 * Keeps one bind_transceiver session to an SMSC up: connects and binds, sends enquire_link
 * every enquireLinkIntervalMs (dropping the connection when one goes unanswered), and
 * reconnects after a drop or a failed bind with exponential backoff (base × 2^n, capped, with
 * up to 20% jitter), resetting the backoff after a successful bind.
 */
export class SmppLink {
  private running = false;
  private bound: SmppConnection | null = null;
  private connecting: SmppConnection | null = null;
  private attempt: Promise<void> | null = null;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private enquireTimer: NodeJS.Timeout | null = null;
  /** smpps://: the TLS options, with `ca_file` read once at start-up (a missing file stops it there). */
  private readonly tls: { readonly ca?: Buffer } | null;

  /**
   * @param attach registers the PDU handlers (deliver_sm, …) on every new connection, before it binds
   */
  constructor(
    private readonly config: SmppConnectionConfig,
    private readonly settings: SmppLinkSettings,
    private readonly logger: CarrierLogger,
    private readonly where: string,
    private readonly attach: (connection: SmppConnection) => void,
  ) {
    this.tls = config.tls ? (config.tls.caFile ? { ca: readFileSync(config.tls.caFile) } : {}) : null;
  }

  /** The bound connection, or null while there is none. */
  get connection(): SmppConnection | null {
    return this.bound !== null && this.bound.isOpen ? this.bound : null;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Resolves after the first bind attempt, successful or not; failures are retried in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    await this.connectAndBind();
  }

  /** Cancels timers and attempts, lets `beforeUnbind` drain the bound connection, then unbinds and closes. */
  async stop(beforeUnbind: (connection: SmppConnection) => Promise<void> = async () => {}): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.enquireTimer) clearTimeout(this.enquireTimer);
    this.reconnectTimer = null;
    this.enquireTimer = null;
    this.connecting?.destroy();
    await this.attempt;
    const connection = this.bound;
    this.bound = null;
    if (!connection) return;
    await beforeUnbind(connection);
    try {
      await connection.request('unbind', {}, Math.min(this.settings.responseTimeoutMs, 5000));
    } catch {
      // Gone already, or no answer: close anyway.
    }
    await connection.close();
    this.logger.log(`Unbound from ${this.where}`);
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
    const connection = SmppConnection.open(this.config.host, this.config.port, this.tls);
    this.connecting = connection;
    connection.on('enquire_link', (pdu) => connection.respond(pdu));
    connection.on('unbind', (pdu) => {
      connection.respond(pdu);
      void connection.close();
    });
    connection.on('unknown', (pdu) => connection.respond(pdu));
    this.attach(connection);
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
        this.logger.warn(`Cannot bind to ${this.where}: ${errorText(error)}`);
        this.scheduleReconnect();
      }
      return;
    }
    this.connecting = null;
    this.bound = connection;
    this.failures = 0;
    this.logger.log(`Bound as transceiver to ${this.where}`);
    connection.onClose((error) => this.onDropped(connection, error));
    this.scheduleEnquireLink(connection);
  }

  private onDropped(connection: SmppConnection, error: Error | null): void {
    if (this.bound !== connection) return;
    this.bound = null;
    if (this.enquireTimer) clearTimeout(this.enquireTimer);
    this.enquireTimer = null;
    if (!this.running) return;
    this.logger.warn(`Connection to ${this.where} dropped${error ? `: ${error.message}` : ''}`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.running || this.reconnectTimer) return;
    const { reconnectBaseDelayMs: base, reconnectMaxDelayMs: max } = this.settings;
    const capped = Math.min(max, base * 2 ** Math.min(this.failures, 30));
    const delay = Math.round(capped * (0.8 + Math.random() * 0.2));
    this.failures++;
    this.logger.log(`Reconnecting to ${this.where} in ${delay} ms (attempt ${this.failures})`);
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
        this.logger.warn(
          `enquire_link to ${this.where} failed (${errorText(error)}); dropping the connection`,
        );
        connection.destroy();
      }
    }, this.settings.enquireLinkIntervalMs);
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
