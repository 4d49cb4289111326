import { fold } from '../../shared/decider';
import {
  campaignDecider,
  cancelCampaign,
  finishCancel,
  mayTake,
  needsWork,
  queueChunk,
  takeCampaign,
} from './campaign.decider';
import type { CampaignCreatedData, CampaignEvent } from './campaign.events';

const now = new Date('2026-12-01T08:00:00Z');
const created = (over: Partial<CampaignCreatedData> = {}): CampaignEvent => ({
  type: 'CampaignCreated',
  data: {
    campaignId: 'cmp_1',
    walletId: 'wal_1',
    accountId: 'acct_1',
    environment: 'TEST',
    name: 'Term reminder',
    senderId: 'School',
    type: 'transactional',
    message: 'Dear {{name}}',
    templateId: null,
    audience: { groups: ['grp_1'], contacts: [] },
    sendAt: null,
    recipients: 2500,
    skipped: { opted_out: 0, missing_field: 0, duplicate: 0, unsendable: 0 },
    credits: 2500,
    chunks: 3,
    listStream: 'campaign-recipients-cmp_1-a',
    idempotencyKey: null,
    retryOf: null,
    createdAt: now.toISOString(),
    instance: 'ins_a',
    leaseUntil: new Date(now.getTime() + 30_000).toISOString(),
    ...over,
  },
});
const given = (...events: CampaignEvent[]) => fold(campaignDecider, events);
const later = (ms: number) => new Date(now.getTime() + ms);
const chunk = (instance: string, n: number, messages = 1000) =>
  queueChunk(given(), { instance, chunk: n, messages, now, leaseMs: 30_000 });

describe('campaign decider', () => {
  it('lets the accepting process expand it chunk by chunk, and records the end with the last chunk', () => {
    let state = given(created());
    for (let n = 0; n < 3; n++) {
      const decided = queueChunk(state, {
        instance: 'ins_a',
        chunk: n,
        messages: n < 2 ? 1000 : 500,
        now,
        leaseMs: 30_000,
      });
      expect(decided.ok).toBe(true);
      if (decided.ok) state = fold(campaignDecider, decided.value, state);
    }
    expect(state).toMatchObject({ chunksQueued: 3, messagesQueued: 2500, expandedAt: now.toISOString() });
    expect(needsWork(state)).toBe(false);
  });

  it('refuses a chunk from a process that does not hold it, or out of order', () => {
    const state = given(created());
    expect(queueChunk(state, { instance: 'ins_b', chunk: 0, messages: 1, now, leaseMs: 1 })).toMatchObject({
      ok: false,
      error: { code: 'campaign_taken' },
    });
    expect(queueChunk(state, { instance: 'ins_a', chunk: 1, messages: 1, now, leaseMs: 1 })).toMatchObject({
      ok: false,
    });
    expect(chunk('ins_a', 0).ok).toBe(false); // no campaign at all
  });

  it('is taken over by another process only when the holder’s lease ran out or it is dead', () => {
    const state = given(created());
    const take = (instance: string, at: Date, holderDead = false) =>
      takeCampaign(state, { instance, now: at, leaseMs: 30_000, holderDead });
    const events = (decided: ReturnType<typeof take>) => (decided.ok ? decided.value : null);
    expect(events(take('ins_b', later(1000)))).toEqual([]);
    expect(events(take('ins_b', later(1000), true))).toHaveLength(1);
    expect(events(take('ins_b', later(31_000)))).toHaveLength(1);
    expect(mayTake(state, { instance: 'ins_a', now, leaseMs: 1, holderDead: false })).toBe(true);
  });

  it('cancels a scheduled campaign once, taking its work over; refuses one already sending', () => {
    const scheduled = given(created({ sendAt: later(3_600_000).toISOString() }));
    const cancel = (state = scheduled, walletId = 'wal_1') =>
      cancelCampaign(state, { walletId, instance: 'ins_b', now, leaseMs: 30_000 });
    const canceled = cancel();
    expect(canceled.ok && canceled.value[0]).toMatchObject({
      type: 'CampaignCanceled',
      data: { instance: 'ins_b' },
    });
    const after = fold(campaignDecider, canceled.ok ? canceled.value : [], scheduled);
    expect(cancel(after)).toEqual({ ok: true, value: [] });
    expect(queueChunk(after, { instance: 'ins_a', chunk: 0, messages: 1, now, leaseMs: 1 }).ok).toBe(false);
    expect(needsWork(after)).toBe(true);
    expect(finishCancel(after, { instance: 'ins_a', now }).ok).toBe(false);
    const finished = finishCancel(after, { instance: 'ins_b', now });
    expect(needsWork(fold(campaignDecider, finished.ok ? finished.value : [], after))).toBe(false);
    expect(cancel(given(created()))).toMatchObject({ ok: false, error: { code: 'campaign_not_cancelable' } });
    expect(cancel(scheduled, 'wal_2')).toMatchObject({ ok: false, error: { code: 'resource_missing' } });
  });
});
