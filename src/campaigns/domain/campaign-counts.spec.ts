import { CampaignTally, emptyCounts, moveMessage } from './campaign-counts';

describe('campaign counts (by status, by carrier), from each message’s one byte', () => {
  const start = (size = 4) => ({ counts: emptyCounts(), tally: CampaignTally.empty(size) });

  it('counts a message once per status and moves it forward only', () => {
    const { counts, tally } = start();
    expect(moveMessage(counts, tally, 0, 'QUEUED', 'MTN')).toBe(true);
    expect(moveMessage(counts, tally, 0, 'SENT')).toBe(true);
    expect(moveMessage(counts, tally, 0, 'QUEUED')).toBe(false); // late or repeated: nothing moves
    expect(moveMessage(counts, tally, 0, 'DELIVERED')).toBe(true);
    expect(moveMessage(counts, tally, 0, 'FAILED')).toBe(false); // final stays final
    expect(counts.counts).toMatchObject({ QUEUED: 0, SENT: 0, DELIVERED: 1, FAILED: 0 });
    expect(counts.byCarrier).toEqual({ MTN: { delivered: 1, failed: 0, expired: 0, pending: 0 } });
    expect(counts.final).toBe(1);
  });

  it('keeps pending per carrier and leaves CANCELED out of the carriers’ outcomes', () => {
    const { counts, tally } = start();
    moveMessage(counts, tally, 0, 'SCHEDULED', 'MTN');
    moveMessage(counts, tally, 1, 'SCHEDULED', 'AT');
    moveMessage(counts, tally, 2, 'QUEUED', 'AT');
    expect(counts.byCarrier).toEqual({
      MTN: { delivered: 0, failed: 0, expired: 0, pending: 1 },
      AT: { delivered: 0, failed: 0, expired: 0, pending: 2 },
    });
    expect(moveMessage(counts, tally, 2, 'CANCELED')).toBe(false); // only a SCHEDULED one cancels
    moveMessage(counts, tally, 0, 'CANCELED');
    moveMessage(counts, tally, 1, 'EXPIRED');
    expect(counts.counts).toMatchObject({ SCHEDULED: 0, QUEUED: 1, CANCELED: 1, EXPIRED: 1 });
    expect(counts.byCarrier.MTN).toEqual({ delivered: 0, failed: 0, expired: 0, pending: 0 });
    expect(counts.byCarrier.AT).toEqual({ delivered: 0, failed: 0, expired: 1, pending: 1 });
    expect(counts.final).toBe(2);
  });

  it('counts a message never written (rejected) by status only', () => {
    const { counts, tally } = start();
    expect(moveMessage(counts, tally, 3, 'FAILED')).toBe(true);
    expect(counts.counts.FAILED).toBe(1);
    expect(counts.byCarrier).toEqual({});
    expect(moveMessage(counts, tally, 9, 'QUEUED', 'MTN')).toBe(false); // no such place
  });

  it('stores the tally as base64 and reads it back, finding the places in given statuses', () => {
    const { counts, tally } = start(5);
    moveMessage(counts, tally, 1, 'QUEUED', 'MTN');
    moveMessage(counts, tally, 1, 'FAILED');
    moveMessage(counts, tally, 3, 'QUEUED', 'TELECEL');
    moveMessage(counts, tally, 3, 'EXPIRED');
    moveMessage(counts, tally, 4, 'QUEUED', 'TELECEL');
    const stored = JSON.parse(JSON.stringify({ tally })) as { tally: string };
    const read = CampaignTally.fromBase64(stored.tally);
    expect([...read.placesIn(new Set(['FAILED', 'EXPIRED'] as const))]).toEqual([1, 3]);
    expect(read.status(4)).toBe('QUEUED');
    expect(read.carrierIndex(4)).toBe(1);
  });
});
