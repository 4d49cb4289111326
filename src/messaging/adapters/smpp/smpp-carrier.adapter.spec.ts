import type { SubmitResult } from '../../ports/carrier.port';
import { encodeGsm7, encodeUcs2 } from './sms-encoding';
import { SmppCarrier, SmppCarrierOptions } from './smpp-carrier.adapter';
import { parseSmppUrl } from './smpp-url';
import { CapturingLogger, outbound, RecordingSink, waitFor } from './smpp.test-support';
import { SmscSimulator, SmscSimulatorOptions } from './smsc-simulator';

/** The adapter against the SMSC simulator over 127.0.0.1 on a random port. */
describe('SmppCarrier against the SMSC simulator', () => {
  let simulator: SmscSimulator | null = null;
  let carrier: SmppCarrier | null = null;
  let sink: RecordingSink;
  let logger: CapturingLogger;

  const fast: SmppCarrierOptions = {
    reconnectBaseDelayMs: 50,
    reconnectMaxDelayMs: 400,
    throttledRetryMs: 50,
    disconnectedRetryMs: 250,
    responseTimeoutMs: 15_000,
  };

  async function setup(
    simulatorOptions: SmscSimulatorOptions = {},
    carrierOptions: SmppCarrierOptions = {},
    query = '',
  ): Promise<{ simulator: SmscSimulator; carrier: SmppCarrier }> {
    simulator = await new SmscSimulator({ receiptDelayMs: 20, ...simulatorOptions }).listen();
    carrier = new SmppCarrier('MTN', parseSmppUrl(simulator.url(query)), {
      ...fast,
      logger,
      ...carrierOptions,
    });
    await carrier.start(sink);
    const started = carrier;
    await waitFor(() => started.isBound(), 'the carrier to bind');
    return { simulator, carrier };
  }

  function acceptedIds(result: SubmitResult): readonly string[] {
    if (result.outcome !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(result)}`);
    return result.carrierMessageIds;
  }

  async function receiptFor(id: string): Promise<ReturnType<RecordingSink['for']>[number]> {
    await waitFor(() => sink.for(id).length > 0, `a receipt for ${id}`);
    return sink.for(id)[0];
  }

  beforeEach(() => {
    sink = new RecordingSink();
    logger = new CapturingLogger();
  });

  afterEach(async () => {
    await carrier?.stop();
    await simulator?.close();
    carrier = null;
    simulator = null;
  });

  it('delivers a GSM message: explicit data_coding 0, raw septets, addresses, receipt DELIVERED', async () => {
    const { simulator, carrier } = await setup();
    const message = outbound('+233200000001', 'Hello @ 5€ {ok}');
    const [id] = acceptedIds(await carrier.submit(message));
    expect(await receiptFor(id)).toMatchObject({
      carrier: 'MTN',
      status: 'DELIVERED',
      carrierStatus: 'DELIVRD',
      errorCode: null,
    });

    const [sent] = simulator.submissionsTo('+233200000001');
    expect(sent).toMatchObject({
      destinationAddr: '233200000001',
      destAddrTon: 1,
      destAddrNpi: 1,
      sourceAddr: 'MyShop',
      esmClass: 0,
      dataCoding: 0,
      registeredDelivery: 1,
      udh: null,
      text: 'Hello @ 5€ {ok}',
    });
    expect(sent.shortMessage.equals(encodeGsm7('Hello @ 5€ {ok}'))).toBe(true);
    expect(sent.validityPeriod).toMatch(/^\d{13}00\+$/);
  });

  it('reports undeliverable with the err value', async () => {
    const { carrier } = await setup();
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000002', 'x')));
    const receipt = await receiptFor(id);
    expect(receipt).toMatchObject({ status: 'FAILED', carrierStatus: 'UNDELIV', errorCode: 'undeliverable' });
    expect(receipt.errorMessage).toContain('001');
  });

  it('reports expired', async () => {
    const { carrier } = await setup();
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000003', 'x')));
    expect(await receiptFor(id)).toMatchObject({ status: 'EXPIRED', carrierStatus: 'EXPIRED' });
  });

  it('returns rejected with the SMPP status name when submit_sm is refused', async () => {
    const { carrier } = await setup();
    const result = await carrier.submit(outbound('+233200000004', 'x'));
    expect(result).toMatchObject({ outcome: 'rejected', errorCode: 'ESME_RINVDSTADR' });
  });

  it('sends a 3-part GSM message with a concatenation UDH on each part and one receipt per part', async () => {
    const { simulator, carrier } = await setup();
    const body = 'Part text with an extension character [x] ' + 'abcdefghij'.repeat(38);
    const message = outbound('+233200000001', body);
    expect(message.segments).toBe(3);
    const ids = acceptedIds(await carrier.submit(message));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);

    const parts = [...simulator.submissionsTo('+233200000001')].sort(
      (a, b) => (a.concat?.sequence ?? 0) - (b.concat?.sequence ?? 0),
    );
    expect(parts).toHaveLength(3);
    const reference = parts[0].concat?.reference;
    parts.forEach((part, i) => {
      expect(part.esmClass).toBe(0x40);
      expect(part.dataCoding).toBe(0);
      expect([...(part.udh ?? [])]).toEqual([0x05, 0x00, 0x03, reference, 3, i + 1]);
      expect(part.payload.length).toBeLessThanOrEqual(153);
    });
    expect(Buffer.concat(parts.map((p) => p.payload)).equals(encodeGsm7(body))).toBe(true);
    expect(parts.map((p) => p.text).join('')).toBe(body);
    for (const id of ids) expect((await receiptFor(id)).status).toBe('DELIVERED');
  });

  it('sends UCS-2 as data_coding 8 with UTF-16BE bytes, also split into parts', async () => {
    const { simulator, carrier } = await setup();
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000011', 'Привет, мир 😀')));
    const [single] = simulator.submissionsTo('+233200000011');
    expect(single.dataCoding).toBe(8);
    expect(single.esmClass).toBe(0);
    expect(single.shortMessage.equals(encodeUcs2('Привет, мир 😀'))).toBe(true);
    expect((await receiptFor(id)).status).toBe('DELIVERED');

    const long = 'ж'.repeat(66) + '😀' + 'ж'.repeat(10);
    const ids = acceptedIds(await carrier.submit(outbound('+233200000012', long)));
    expect(ids).toHaveLength(2);
    const parts = simulator.submissionsTo('+233200000012');
    expect(parts.map((p) => p.dataCoding)).toEqual([8, 8]);
    expect(parts.map((p) => p.text).join('')).toBe(long);
    expect(parts[1].text?.startsWith('😀')).toBe(true);
  });

  it('returns retry when throttled, and a later submit succeeds', async () => {
    const { simulator, carrier } = await setup();
    const message = outbound('+233200000005', 'throttle me');
    const first = await carrier.submit(message);
    expect(first).toMatchObject({ outcome: 'retry' });
    if (first.outcome === 'retry') {
      expect(first.reason).toContain('ESME_RTHROTTLED');
      expect(first.afterMs).toBeGreaterThan(0);
    }
    const [id] = acceptedIds(await carrier.submit(message));
    expect(simulator.submissionsTo('+233200000005').map((s) => s.status)).toEqual([
      'ESME_RTHROTTLED',
      'ESME_RTHROTTLED',
      'ESME_ROK',
    ]);
    expect((await receiptFor(id)).status).toBe('DELIVERED');
  });

  it('answers retry for submits in flight when the connection drops, then reconnects', async () => {
    const { simulator, carrier } = await setup({ rules: [{ suffix: '0000009', outcome: { type: 'hang' } }] });
    const inFlight = carrier.submit(outbound('+233200000009', 'never answered'));
    await waitFor(() => simulator.submissionsTo('+233200000009').length === 1, 'the submit to arrive');
    simulator.dropConnections();
    expect(await inFlight).toMatchObject({ outcome: 'retry' });

    await waitFor(() => simulator.bindCount >= 2 && carrier.isBound(), 'the carrier to bind again');
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000001', 'after the drop')));
    expect((await receiptFor(id)).status).toBe('DELIVERED');
  });

  it('delivers receipts generated before a drop once it has reconnected', async () => {
    const { simulator, carrier } = await setup({ receiptDelayMs: 300 });
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000001', 'receipt after drop')));
    simulator.dropConnections();
    expect((await receiptFor(id)).status).toBe('DELIVERED');
  });

  it('answers retry while unbound, and binds once the SMSC comes up', async () => {
    const probe = await new SmscSimulator().listen();
    const port = probe.port;
    await probe.close();
    carrier = new SmppCarrier('MTN', parseSmppUrl(`smpp://test:test@127.0.0.1:${port}`), { ...fast, logger });
    await carrier.start(sink);
    expect(carrier.isBound()).toBe(false);
    expect(await carrier.submit(outbound('+233200000001', 'x'))).toMatchObject({ outcome: 'retry' });

    simulator = await new SmscSimulator({ port }).listen();
    const started = carrier;
    await waitFor(() => started.isBound(), 'the carrier to bind after the SMSC came up');
    acceptedIds(await carrier.submit(outbound('+233200000001', 'now bound')));
    expect(logger.lines.some((line) => line.includes('Reconnecting'))).toBe(true);
  });

  it('keeps retrying a refused bind with backoff (wrong password → ESME_RBINDFAIL)', async () => {
    simulator = await new SmscSimulator({ password: 'right' }).listen();
    carrier = new SmppCarrier('MTN', parseSmppUrl(`smpp://test:wrong@127.0.0.1:${simulator.port}`), {
      ...fast,
      logger,
    });
    await carrier.start(sink);
    await waitFor(
      () => logger.lines.filter((line) => line.includes('ESME_RBINDFAIL')).length >= 2,
      'two refused binds',
    );
    expect(carrier.isBound()).toBe(false);
    expect(simulator.bindCount).toBe(0);
  });

  it('parses text-only, TLV-only and TLV-plus-text receipts', async () => {
    const { simulator, carrier } = await setup();
    for (const style of ['text', 'tlv', 'tlv-and-text'] as const) {
      simulator.configure({ receiptStyle: style });
      const [id] = acceptedIds(await carrier.submit(outbound('+233200000002', `style ${style}`)));
      expect(await receiptFor(id)).toMatchObject({
        status: 'FAILED',
        errorCode: 'undeliverable',
        carrierStatus: 'UNDELIV',
      });
    }
    await waitFor(() => simulator.receiptsSent().length === 3, 'three deliver_sm_resp');
    expect(simulator.receiptsSent().map((r) => r.style)).toEqual(['text', 'tlv', 'tlv-and-text']);
  });

  it('matches ids whether the receipt writes them in decimal or hex', async () => {
    const { simulator, carrier } = await setup({ messageIdFormat: 'hex', receiptIdFormat: 'decimal' });
    const [hexId] = acceptedIds(await carrier.submit(outbound('+233200000001', 'hex id')));
    expect(hexId).toMatch(/^[0-9A-F]*[A-F][0-9A-F]*$/);
    await receiptFor(hexId);
    await waitFor(() => simulator.receiptsSent().length === 1, 'the first deliver_sm_resp');
    expect(simulator.receiptsSent()[0].writtenId).toBe(String(parseInt(hexId, 16)));

    simulator.configure({ messageIdFormat: 'decimal', receiptIdFormat: 'hex' });
    const [decimalId] = acceptedIds(await carrier.submit(outbound('+233200000001', 'decimal id')));
    expect(decimalId).toMatch(/^\d+$/);
    await receiptFor(decimalId);
    await waitFor(() => simulator.receiptsSent().length === 2, 'the second deliver_sm_resp');
    expect(simulator.receiptsSent()[1].writtenId).toBe(Number(decimalId).toString(16).toUpperCase());
  });

  it('answers every deliver_sm and survives unknown ids, garbage, MO messages and a failing sink', async () => {
    const { simulator, carrier } = await setup();
    const receipt = (id: string): Record<string, unknown> => ({
      esm_class: 0x04,
      short_message: Buffer.from(
        `id:${id} sub:001 dlvrd:001 submit date:2601010000 done date:2601010000 stat:DELIVRD err:000`,
      ),
    });
    expect(await simulator.sendDeliverSm(receipt('FFFFFFF'))).toBe('ESME_ROK');
    expect(sink.for('FFFFFFF')).toHaveLength(1);
    expect(await simulator.sendDeliverSm({ esm_class: 0x04, short_message: Buffer.from('garbage') })).toBe(
      'ESME_ROK',
    );
    expect(await simulator.sendDeliverSm({ esm_class: 0, short_message: Buffer.from('STOP') })).toBe(
      'ESME_ROK',
    );
    expect(
      await simulator.sendDeliverSm({ esm_class: 0x04, receipted_message_id: '1', message_state: 99 }),
    ).toBe('ESME_ROK');
    expect(sink.receipts).toHaveLength(1);
    expect(logger.lines.some((line) => line.startsWith('warn Ignoring a malformed'))).toBe(true);

    sink.failNext = 1;
    expect(await simulator.sendDeliverSm(receipt('ABC'))).toBe('ESME_RX_T_APPN');
    expect(sink.for('ABC')).toHaveLength(0);

    // The simulator redelivers a receipt the sink failed to record.
    sink.failNext = 1;
    const [id] = acceptedIds(await carrier.submit(outbound('+233200000001', 'after failures')));
    expect((await receiptFor(id)).status).toBe('DELIVERED');
    await waitFor(() => simulator.receiptsSent().length === 2, 'both deliver_sm_resp');
    expect(simulator.receiptsSent().map((r) => r.response)).toEqual(['ESME_RX_T_APPN', 'ESME_ROK']);
    expect(carrier.isBound()).toBe(true);
  });

  it('sends alphanumeric senders as TON 5 / NPI 0 and numeric ones as TON 1 / NPI 1', async () => {
    const { simulator, carrier } = await setup();
    acceptedIds(await carrier.submit(outbound('+233200000021', 'a', { senderId: 'MyShop' })));
    acceptedIds(await carrier.submit(outbound('+233200000022', 'b', { senderId: '+233241234567' })));
    expect(simulator.submissionsTo('+233200000021')[0]).toMatchObject({
      sourceAddr: 'MyShop',
      sourceAddrTon: 5,
      sourceAddrNpi: 0,
    });
    expect(simulator.submissionsTo('+233200000022')[0]).toMatchObject({
      sourceAddr: '233241234567',
      sourceAddrTon: 1,
      sourceAddrNpi: 1,
    });
  });

  it('keeps the session alive with enquire_link', async () => {
    const { simulator, carrier } = await setup({}, { enquireLinkIntervalMs: 100 });
    await waitFor(() => simulator.enquireLinkCount >= 3, 'three enquire_link PDUs');
    expect(carrier.isBound()).toBe(true);
    expect(simulator.bindCount).toBe(1);
  });

  it('drops and re-binds a connection whose enquire_link goes unanswered', async () => {
    const { simulator, carrier } = await setup(
      { answerEnquireLink: false },
      { enquireLinkIntervalMs: 100, responseTimeoutMs: 300 },
    );
    await waitFor(() => simulator.bindCount >= 2, 'a second bind after the silent link');
    expect(logger.lines.some((line) => line.includes('enquire_link') && line.includes('dropping'))).toBe(
      true,
    );
    simulator.configure({ answerEnquireLink: true });
    // A link dropped just before the change may still be re-binding: retry as the outbox would.
    let result: SubmitResult = { outcome: 'retry', afterMs: 0, reason: 'not tried' };
    const message = outbound('+233200000001', 'after re-bind');
    for (let tries = 0; tries < 50 && result.outcome === 'retry'; tries++) {
      await waitFor(() => carrier.isBound(), 'the carrier to be bound');
      result = await carrier.submit(message);
    }
    acceptedIds(result);
  });

  it('limits submits in flight to the window and answers retry when no slot frees up', async () => {
    const { simulator, carrier } = await setup(
      { rules: [{ suffix: '0000009', outcome: { type: 'hang' } }] },
      { maxQueueWaitMs: 300 },
      'window=2',
    );
    const hanging = [1, 2].map((n) => carrier.submit(outbound('+233200000009', `hang ${n}`)));
    await waitFor(() => simulator.submissionsTo('+233200000009').length === 2, 'two submits in flight');
    const third = await carrier.submit(outbound('+233200000001', 'no slot'));
    expect(third).toMatchObject({ outcome: 'retry' });
    if (third.outcome === 'retry') expect(third.reason).toContain('window');
    simulator.dropConnections();
    for (const result of await Promise.all(hanging)) expect(result.outcome).toBe('retry');
  });

  it('paces submits to the tps limit', async () => {
    const { simulator, carrier } = await setup({}, {}, 'tps=20&window=5');
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) => carrier.submit(outbound('+233200000031', `paced ${n}`))),
    );
    expect(results.every((r) => r.outcome === 'accepted')).toBe(true);
    // 10 PDUs at 20/s need at least 9 intervals of 50 ms; only a lower bound is safe to assert.
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(simulator.submissionsTo('+233200000031')).toHaveLength(10);
  });

  it('unbinds and closes on stop, cancelling reconnects', async () => {
    const { simulator, carrier } = await setup();
    await carrier.stop();
    expect(carrier.isBound()).toBe(false);
    await waitFor(() => simulator.boundSessionCount === 0, 'the session to close');
    expect(await carrier.submit(outbound('+233200000001', 'x'))).toMatchObject({ outcome: 'retry' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(simulator.bindCount).toBe(1);
  });
});
