import fc from 'fast-check';
import { batchMessageId } from './batch.events';
import { newId } from '../../shared/ids';
import { campaignMessageId, campaignOfMessage } from './campaign-message-ids';

describe('campaign message ids', () => {
  const campaign = newId('cmp');

  it('names a message after its campaign and place, and reads both back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (place) => {
        const id = campaignMessageId(campaign, place);
        expect(id).toMatch(/^msg_[0-9A-Za-z]{25}$/);
        expect(campaignOfMessage(id)).toEqual({ campaignId: campaign, place });
      }),
    );
  });

  it('keeps places in id order, so a campaign’s messages list in the order they were written', () => {
    const ids = [0, 1, 61, 62, 999, 1000, 99_999].map((p) => campaignMessageId(campaign, p));
    expect([...ids].sort()).toEqual(ids);
  });

  it('tells no campaign for a single send’s, a batch’s or a malformed id', () => {
    expect(campaignOfMessage(newId('msg'))).toBeNull();
    expect(campaignOfMessage(batchMessageId(newId('bat'), 3))).toBeNull();
    expect(campaignOfMessage(`msg_${'a'.repeat(22)}!!!`)).toBeNull();
    expect(campaignOfMessage(`xyz_${'a'.repeat(25)}`)).toBeNull();
  });
});
