import type { CarrierReceipt, OutboundMessage } from '../../ports/carrier.port';
import { simulatedCarrierMessageId, TestCarrierSimulator } from './test-carrier.adapter';

const message = (to: string, segments = 1): OutboundMessage => ({
  messageId: 'msg_abc',
  to,
  senderId: 'MyShop',
  body: 'hi',
  encoding: 'GSM-7',
  segments,
  environment: 'TEST',
  validUntil: '2030-01-01T00:00:00.000Z',
});

describe('TEST carrier simulator', () => {
  let receipts: CarrierReceipt[];
  let simulator: TestCarrierSimulator;
  beforeEach(() => {
    receipts = [];
    simulator = new TestCarrierSimulator({ dlrDelayMs: 5 });
    simulator.start({ receipt: async (r) => void receipts.push(r) });
  });
  afterEach(() => simulator.stop());
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('accepts with carrier ids derived from the message id and part, and reports one receipt per part', async () => {
    const result = await simulator.carrier('MTN').submit(message('+233241234567', 2));
    expect(result).toEqual({ outcome: 'accepted', carrierMessageIds: ['sim-msg_abc-1', 'sim-msg_abc-2'] });
    await settle();
    expect(
      receipts.map((r) => [r.carrier, r.carrierMessageIdCandidates[0], r.status, r.carrierStatus, r.messageId]),
    ).toEqual([
      ['MTN', simulatedCarrierMessageId('msg_abc', 1), 'DELIVERED', 'DELIVRD', 'msg_abc'],
      ['MTN', simulatedCarrierMessageId('msg_abc', 2), 'DELIVERED', 'DELIVRD', 'msg_abc'],
    ]);
  });

  it.each([
    ['+233200000002', 'FAILED', 'undeliverable'],
    ['+233200000003', 'EXPIRED', null],
  ])('reports the sandbox outcome of %s', async (to, status, errorCode) => {
    await simulator.carrier('TELECEL').submit(message(to));
    await settle();
    expect(receipts).toEqual([expect.objectContaining({ carrier: 'TELECEL', status, errorCode })]);
  });

  it('rejects +233200000004 at submission, with no receipt', async () => {
    expect(await simulator.carrier('TELECEL').submit(message('+233200000004'))).toMatchObject({
      outcome: 'rejected',
      errorCode: 'rejected',
    });
    await settle();
    expect(receipts).toEqual([]);
  });

  it('a resubmission answers the same ids and schedules the receipts once while pending', async () => {
    const carrier = simulator.carrier('MTN');
    const a = await carrier.submit(message('+233241234567'));
    const b = await carrier.submit(message('+233241234567'));
    expect(b).toEqual(a);
    await settle();
    expect(receipts).toHaveLength(1);
    await carrier.submit(message('+233241234567'));
    await settle();
    expect(receipts).toHaveLength(2); // redelivered after the first finished: harmless, the decider ignores it
  });

  it('stops without reporting what was pending', async () => {
    await simulator.carrier('MTN').submit(message('+233241234567'));
    simulator.stop();
    await settle();
    expect(receipts).toEqual([]);
  });
});
