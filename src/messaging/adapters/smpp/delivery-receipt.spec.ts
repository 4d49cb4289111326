import { canonicalCarrierMessageId, carrierMessageIdCandidates } from './carrier-message-id';
import { DeliverSmView, parseDeliveryReceipt, parseReceiptText } from './delivery-receipt';

const at = new Date('2026-01-01T00:00:00Z');

function view(overrides: Partial<DeliverSmView>): DeliverSmView {
  return {
    esmClass: 0x04,
    text: null,
    receiptedMessageId: null,
    messageState: null,
    networkErrorCode: null,
    ...overrides,
  };
}

const text = (id: string, stat: string, err = '000'): string =>
  `id:${id} sub:001 dlvrd:000 submit date:2601010000 done date:2601010001 stat:${stat} err:${err} text:Hello stat:DELIVRD`;

describe('parseDeliveryReceipt', () => {
  it('reads a text receipt', () => {
    const result = parseDeliveryReceipt(view({ text: text('A1B2C3', 'DELIVRD') }), 'MTN', at);
    expect(result).toEqual({
      kind: 'receipt',
      receipt: {
        carrier: 'MTN',
        environment: 'LIVE',
        carrierMessageIdCandidates: ['A1B2C3', '10597059'],
        status: 'DELIVERED',
        carrierStatus: 'DELIVRD',
        errorCode: null,
        errorMessage: null,
        reportedAt: at,
      },
    });
  });

  it.each([
    ['UNDELIV', 'FAILED', 'undeliverable'],
    ['REJECTD', 'FAILED', 'rejected'],
    ['DELETED', 'FAILED', 'deleted'],
    ['UNKNOWN', 'FAILED', 'unknown'],
    ['EXPIRED', 'EXPIRED', 'expired'],
  ])('maps stat:%s to %s (%s) with err in the message', (stat, status, errorCode) => {
    const result = parseDeliveryReceipt(view({ text: text('12', stat, '005') }), 'MTN', at);
    expect(result).toMatchObject({ kind: 'receipt', receipt: { status, errorCode, carrierStatus: stat } });
    if (result.kind === 'receipt') expect(result.receipt.errorMessage).toContain('err:005');
  });

  it('prefers the TLVs receipted_message_id and message_state', () => {
    const result = parseDeliveryReceipt(
      view({ text: text('999', 'DELIVRD'), receiptedMessageId: '00a1b2c3', messageState: 5 }),
      'AT',
      at,
    );
    expect(result).toMatchObject({
      kind: 'receipt',
      receipt: { status: 'FAILED', carrierStatus: 'UNDELIV', errorCode: 'undeliverable' },
    });
    if (result.kind === 'receipt') expect(result.receipt.carrierMessageIdCandidates).toContain('A1B2C3');
  });

  it('reads TLV-only receipts with a network error code', () => {
    const result = parseDeliveryReceipt(
      view({ receiptedMessageId: '42', messageState: 8, networkErrorCode: Buffer.from([3, 0, 11]) }),
      'AT',
      at,
    );
    expect(result).toMatchObject({
      kind: 'receipt',
      receipt: { status: 'FAILED', errorMessage: 'Carrier reported REJECTD (err:3/11)' },
    });
  });

  it('treats ACCEPTD and ENROUTE as intermediate', () => {
    expect(parseDeliveryReceipt(view({ text: text('1', 'ENROUTE') }), 'MTN', at).kind).toBe('intermediate');
    expect(parseDeliveryReceipt(view({ receiptedMessageId: '1', messageState: 6 }), 'MTN', at).kind).toBe(
      'intermediate',
    );
  });

  it('hands mobile-originated messages back as not-a-receipt', () => {
    expect(parseDeliveryReceipt(view({ esmClass: 0, text: 'STOP' }), 'MTN', at).kind).toBe('not-a-receipt');
    expect(parseDeliveryReceipt(view({ esmClass: 0x10, text: 'user ack' }), 'MTN', at).kind).toBe(
      'not-a-receipt',
    );
  });

  it('never takes a receipt text for a receipt without the flags: a handset can type one (issue 28)', () => {
    for (const esmClass of [0, 0x03, 0x40, 0x80, 0x10])
      expect(parseDeliveryReceipt(view({ esmClass, text: text('77', 'UNDELIV') }), 'MTN', at).kind).toBe(
        'not-a-receipt',
      );
    // message_state alone is not the flag (receipted_message_id is).
    expect(
      parseDeliveryReceipt(view({ esmClass: 0, text: text('77', 'UNDELIV'), messageState: 5 }), 'MTN', at)
        .kind,
    ).toBe('not-a-receipt');
  });

  it('takes the SMSC receipt and SME acknowledgement types, and the receipted_message_id TLV, as receipts', () => {
    for (const esmClass of [0x04, 0x08, 0x04 | 0x03, 0x08 | 0x40])
      expect(parseDeliveryReceipt(view({ esmClass, text: text('77', 'DELIVRD') }), 'MTN', at).kind).toBe(
        'receipt',
      );
    expect(
      parseDeliveryReceipt(view({ esmClass: 0, receiptedMessageId: '77', messageState: 2 }), 'MTN', at).kind,
    ).toBe('receipt');
    // An acknowledgement without a receipt's fields is no inbound message either: dropped.
    expect(parseDeliveryReceipt(view({ esmClass: 0x08, text: 'ack' }), 'MTN', at).kind).toBe('invalid');
  });

  it('reports garbage as invalid', () => {
    expect(parseDeliveryReceipt(view({ text: 'hello' }), 'MTN', at).kind).toBe('invalid');
    expect(parseDeliveryReceipt(view({ text: 'id:1 stat:WHATEVER' }), 'MTN', at).kind).toBe('invalid');
    expect(parseDeliveryReceipt(view({ receiptedMessageId: '1', messageState: 42 }), 'MTN', at).kind).toBe(
      'invalid',
    );
    expect(parseDeliveryReceipt(view({ messageState: 2 }), 'MTN', at).kind).toBe('invalid');
  });
});

describe('parseReceiptText', () => {
  it('reads the fields in any case and ignores the text after text:', () => {
    expect(
      parseReceiptText(
        'ID:0x1 SUB:001 DLVRD:001 SUBMIT DATE:2601010000 DONE DATE:2601010001 STAT:delivrd ERR:000 TEXT:id:2 stat:UNDELIV',
      ),
    ).toEqual({
      id: '0x1',
      stat: 'DELIVRD',
      err: '000',
      sub: '001',
      dlvrd: '001',
      submitDate: '2601010000',
      doneDate: '2601010001',
    });
  });
});

describe('carrier message ids', () => {
  it('lists the id as written, canonical, then the other base', () => {
    expect(carrierMessageIdCandidates('10597059')).toEqual(['10597059', 'A1B2C3', '274296921']);
    expect(carrierMessageIdCandidates('a1b2c3')).toEqual(['a1b2c3', 'A1B2C3', '10597059']);
    expect(carrierMessageIdCandidates('000A1B2C3')).toEqual(['000A1B2C3', 'A1B2C3', '10597059']);
    expect(carrierMessageIdCandidates('0042')).toEqual(['0042', '42', '2A', '66']);
    expect(carrierMessageIdCandidates('msg-7f3a')).toEqual(['msg-7f3a']);
  });

  it('canonicalises hex-looking ids and leaves others alone', () => {
    expect(canonicalCarrierMessageId(' 00a1b2c3 ')).toBe('A1B2C3');
    expect(canonicalCarrierMessageId('000')).toBe('0');
    expect(canonicalCarrierMessageId('msg-7f3a')).toBe('msg-7f3a');
  });
});
