import { historyRow } from './wallet-history';

const row = (type: string, data: object) =>
  historyRow({ object: 'wallet_event', revision: 7, type, data, recorded_at: '2026-11-27T10:00:00.000Z' });

describe('the wallet history page', () => {
  it('says what a ReservationsSettled did in a line, counting messages and credits', () => {
    const settled = row('ReservationsSettled', {
      captured: [{ messageId: 'msg_1', sms: 1 }],
      released: [
        { messageId: 'msg_2', sms: 2, reason: 'message failed' },
        { messageId: 'msg_3', sms: 1, reason: 'message expired' },
      ],
    });
    expect(settled.summary).toBe(
      '1 message delivered, 1 credit spent; 2 messages not delivered, 3 credits given back',
    );
    expect(JSON.parse(settled.data).released).toHaveLength(2);
    expect(
      row('ReservationsSettled', { captured: [{ messageId: 'msg_1', sms: 4 }], released: [] }).summary,
    ).toBe('1 message delivered, 4 credits spent');
  });

  it('shows every other event as its data alone', () => {
    expect(row('ReservationCaptured', { messageId: 'msg_1', sms: 1 })).toEqual({
      revision: 7,
      type: 'ReservationCaptured',
      data: '{\n  "messageId": "msg_1",\n  "sms": 1\n}',
      recorded_at: '2026-11-27T10:00:00.000Z',
      summary: null,
    });
  });
});
