import { numbersAssign } from '../../src/cli/commands/compliance.commands';
import { loadMessagingOptions, MESSAGING_OPTIONS } from '../../src/messaging/messaging.options';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { createLiveMerchant, createMerchant, Merchant } from '../support/merchant';
import { send, smsLeft } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, items 3 and 6: what a handset (or a carrier link) can make of a deliver_sm, tried over
 * real SMPP against the SMSC simulator. Every message the simulator accepts stays SENT (it sends
 * no receipt of its own), so only the PDUs a test sends can settle one.
 *
 * - A mobile-originated SMS whose text looks like a receipt is an inbound message, never a
 *   receipt: it used to fail a SENT LIVE message and release its credit.
 * - A PDU flagged as a receipt counts only for a message submitted on that carrier connection's
 *   route and environment: an MTN SMSC cannot end a TEST message (whose simulated carrier ids
 *   are derived from its public id) nor a TELECEL one.
 * - Inbound numbers are read by their TON/NPI and the route's country: a national 0241234597
 *   opts out +233241234597; a sender that is not a number never becomes an opt-out number.
 */
const SLOW = 60_000;
jest.setTimeout(180_000);

const mtnNumber = () => `+23324${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
const telecelNumber = () => `+23320${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
const longNumber = () => `+23350${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
const digits = (e164: string) => e164.replace(/^\+/, '');

/** The de-facto receipt text, as a handset can type it. */
const receiptText = (id: string, stat: string) =>
  `id:${id} sub:001 dlvrd:000 submit date:2611262300 done date:2611262301 stat:${stat} err:001 text:`;

describe('deliver_sm from carriers and handsets', () => {
  let mtn: SmscSimulator;
  let telecel: SmscSimulator;
  let t: TestApp;

  beforeAll(async () => {
    // Accepted, never receipted: a message stays SENT until a test settles it (or does not).
    const acceptOnly = [{ suffix: '', outcome: { type: 'accept-only' as const } }];
    mtn = await new SmscSimulator({ rules: acceptOnly }).listen();
    telecel = await new SmscSimulator({ rules: acceptOnly }).listen();
    t = await startTestApp({
      env: {
        CARRIER_MTN_URL: mtn.url(),
        CARRIER_TELECEL_URL: telecel.url(),
        // A TEST message stays SENT long enough to be the target of a forged receipt.
        TEST_DLR_DELAY_MS: '600000',
      },
      // A receipt for an id nobody knows is dropped after 1 s (the deliver_sm is answered then).
      override: (builder) =>
        builder
          .overrideProvider(MESSAGING_OPTIONS)
          .useValue({ ...loadMessagingOptions(), receiptMatchGraceMs: 1000 }),
    });
    await eventually(
      async () => (mtn.boundSessionCount === 1 && telecel.boundSessionCount === 1 ? true : undefined),
      SLOW,
      'both binds',
    );
  });

  afterAll(async () => {
    await t?.close();
    await mtn?.close();
    await telecel?.close();
  });

  const liveMerchant = (): Promise<Merchant> => createLiveMerchant(t);

  const status = async (key: string, id: string): Promise<string> =>
    (await t.request('GET', `/v1/messages/${id}`, { key })).body.status;

  /** The message's events in the log: a deliver_sm is answered only after the sink recorded it. */
  const recorded = async (id: string): Promise<string[]> =>
    (await t.app.get<EventStore>(EVENT_STORE).readStream(`message-${id}`)).map((e) => e.type);

  async function sentMessage(key: string, to: string): Promise<string> {
    const sent = await send(t, key, { to });
    expect(sent.status).toBe(200);
    await eventually(
      async () => ((await status(key, sent.body.id)) === 'SENT' ? true : undefined),
      SLOW,
      'the message to be SENT',
    );
    return sent.body.id as string;
  }

  const inbound = async (key: string) =>
    (await t.request('GET', '/v1/inbound_messages?limit=100', { key })).body.data as {
      from: string;
      message: string;
    }[];

  const optOuts = async (key: string): Promise<string[]> =>
    (await t.request('GET', '/v1/opt_outs?limit=100', { key })).body.data.map(
      (o: { phone_number: string }) => o.phone_number,
    );

  /** A mobile-originated deliver_sm, every field explicit (esm_class 0: no receipt bits). */
  function moFields(from: { addr: string; ton: number; npi: number }, to: string, text: string) {
    return {
      source_addr_ton: from.ton,
      source_addr_npi: from.npi,
      source_addr: from.addr,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: digits(to),
      esm_class: 0,
      data_coding: 0,
      short_message: Buffer.from(text, 'ascii'),
    };
  }

  it('a mobile-originated SMS that reads like a receipt is an inbound message: the SENT LIVE message stays SENT, its credit reserved', async () => {
    const m = await liveMerchant();
    const ours = longNumber();
    await numbersAssign.run(t.app, { number: ours, email: m.email });
    const to = mtnNumber();
    const id = await sentMessage(m.liveKey, to);
    const [submission] = mtn.submissionsTo(to);
    expect(submission.messageId).toEqual(expect.any(String));
    const decimalId = String(Number.parseInt(submission.messageId ?? '', 16));

    const text = receiptText(decimalId, 'UNDELIV');
    const answer = await mtn.sendDeliverSm(
      moFields({ addr: digits(mtnNumber()), ton: 1, npi: 1 }, ours, text),
    );
    expect(answer).toBe('ESME_ROK'); // answered once the service recorded (or dropped) it

    const listed = await eventually(
      async () => {
        if ((await status(m.liveKey, id)) !== 'SENT') return 'settled';
        return (await inbound(m.liveKey)).some((x) => x.message === text) ? 'inbound' : undefined;
      },
      SLOW,
      'the inbound message (or the message settled)',
    );
    expect({ listed, status: await status(m.liveKey, id), smsLeft: await smsLeft(t, m.liveKey) }).toEqual({
      listed: 'inbound',
      status: 'SENT',
      smsLeft: 9,
    });
  });

  it('a receipt flagged by the MTN link for a TEST message (its carrier id derived from its public id) changes nothing', async () => {
    const m = await createMerchant(t);
    const id = await sentMessage(m.testKey, mtnNumber());
    const answer = await mtn.sendDeliverSm({
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: digits(mtnNumber()),
      destination_addr: 'MyShop',
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.alloc(0),
      receipted_message_id: `sim-${id}-1`,
      message_state: 5, // UNDELIV
    });
    expect(answer).toBe('ESME_ROK'); // after the sink matched it, or dropped it as unknown
    expect(await recorded(id)).toEqual(['MessageQueued', 'MessageSent']);
  });

  it("a receipt flagged by the TELECEL link for an MTN message's carrier id changes nothing; MTN's own settles it", async () => {
    const m = await liveMerchant();
    const to = mtnNumber();
    const id = await sentMessage(m.liveKey, to);
    const [submission] = mtn.submissionsTo(to);
    const receipt = {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: digits(to),
      destination_addr: 'MyShop',
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.alloc(0),
      receipted_message_id: submission.messageId ?? '',
      message_state: 5, // UNDELIV
    };
    expect(await telecel.sendDeliverSm(receipt)).toBe('ESME_ROK');
    expect(await recorded(id)).toEqual(['MessageQueued', 'MessageSent']);

    // The same PDU from the link the message went out on is its receipt.
    expect(await mtn.sendDeliverSm(receipt)).toBe('ESME_ROK');
    await eventually(
      async () => ((await status(m.liveKey, id)) === 'FAILED' ? true : undefined),
      SLOW,
      'the MTN receipt to fail it',
    );
    await eventually(
      async () => ((await smsLeft(t, m.liveKey)) === 10 ? true : undefined),
      SLOW,
      'the release',
    );
  });

  it('a STOP from a national number (TON national, and TON unknown with the trunk 0) opts out the E.164 number', async () => {
    const m = await liveMerchant();
    const ours = longNumber();
    await numbersAssign.run(t.app, { number: ours, email: m.email });
    const national = mtnNumber().replace(/^\+233/, '0'); // 024…
    const unknownTon = telecelNumber().replace(/^\+233/, '0'); // 020…, TON 0 NPI 0
    expect(await mtn.sendDeliverSm(moFields({ addr: national, ton: 2, npi: 1 }, ours, 'STOP'))).toBe(
      'ESME_ROK',
    );
    expect(await mtn.sendDeliverSm(moFields({ addr: unknownTon, ton: 0, npi: 0 }, ours, 'STOP'))).toBe(
      'ESME_ROK',
    );
    const expected = [national, unknownTon].map((n) => `+233${n.slice(1)}`);
    const listed = await eventually(
      async () => {
        const numbers = await optOuts(m.liveKey);
        return numbers.length >= 2 ? numbers : undefined;
      },
      SLOW,
      'two opt-outs',
    );
    expect([...listed].sort()).toEqual([...expected].sort());
    expect((await inbound(m.liveKey)).map((x) => x.from).sort()).toEqual([...expected].sort());

    // The promotional send to the E.164 form is refused now.
    const refused = await send(t, m.liveKey, { to: expected[0], type: 'promotional' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('recipient_opted_out');
  });

  it('a sender that is not a number (markup, a spreadsheet formula, an alphanumeric name) is inbound text only, never an opt-out number', async () => {
    const m = await liveMerchant();
    const ours = longNumber();
    await numbersAssign.run(t.app, { number: ours, email: m.email });
    const senders = [
      { addr: '=HYPERLINK("x")', ton: 0, npi: 0 },
      { addr: '<b>0241234597</b>', ton: 1, npi: 1 },
      { addr: 'MTN Promo', ton: 5, npi: 0 },
      { addr: '+0241234597', ton: 1, npi: 1 },
    ];
    for (const from of senders) {
      expect(await mtn.sendDeliverSm(moFields(from, ours, 'STOP'))).toBe('ESME_ROK');
    }
    // A real number's STOP after them: once it is listed, the ones before were applied (log order).
    const real = mtnNumber();
    expect(await mtn.sendDeliverSm(moFields({ addr: digits(real), ton: 1, npi: 1 }, ours, 'STOP'))).toBe(
      'ESME_ROK',
    );
    await eventually(
      async () => ((await optOuts(m.liveKey)).includes(real) ? true : undefined),
      SLOW,
      'the real opt-out',
    );
    expect(await optOuts(m.liveKey)).toEqual([real]);
    const froms = (await inbound(m.liveKey)).map((x) => x.from);
    expect(froms).toHaveLength(senders.length + 1);
    expect(froms).toEqual(
      expect.arrayContaining(['=HYPERLINK("x")', '<b>0241234597</b>', 'MTN Promo', real]),
    );
  });
});
