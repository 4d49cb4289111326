import { fold } from '../../shared/decider';
import type { SenderIdEvent } from './compliance.events';
import { approve, reject, request, senderIdDecider } from './sender-id.decider';

const now = new Date('2026-11-23T10:00:00Z');
const given = (...events: SenderIdEvent[]) => fold(senderIdDecider, events);
const requested: SenderIdEvent = {
  type: 'SenderIdRequested',
  data: {
    accountId: 'acct_1',
    senderId: 'MyShop',
    sampleMessage: 'Your order shipped',
    requestedAt: now.toISOString(),
  },
};
const ask = { accountId: 'acct_1', senderId: 'MyShop', sampleMessage: 'Hi', pendingOthers: 0, now };

describe('sender ID decider', () => {
  it('is pending once requested, and not requested twice', () => {
    expect(given(requested).status).toBe('pending');
    expect(request(given(requested), ask)).toMatchObject({ ok: false, error: { code: 'sender_id_exists' } });
  });

  it('is approved by the operator, once', () => {
    const approved = approve(given(requested), { senderId: 'MyShop', now });
    expect(approved.ok && approved.value.map((e) => e.type)).toEqual(['SenderIdApproved']);
    const state = given(requested, ...(approved.ok ? approved.value : []));
    expect(state.status).toBe('approved');
    expect(approve(state, { senderId: 'MyShop', now })).toEqual({ ok: true, value: [] });
  });

  it('is rejected with a reason, and may then be requested again', () => {
    expect(reject(given(requested), { senderId: 'MyShop', reason: ' ', now })).toMatchObject({ ok: false });
    const rejected = reject(given(requested), { senderId: 'MyShop', reason: 'Brand not proven', now });
    const state = given(requested, ...(rejected.ok ? rejected.value : []));
    expect(state).toMatchObject({ status: 'rejected', reason: 'Brand not proven' });
    expect(request(state, ask).ok).toBe(true);
  });

  it('refuses an 11th pending request of the account, but still says 409 for one that exists', () => {
    expect(request(given(), { ...ask, pendingOthers: 9 }).ok).toBe(true);
    expect(request(given(), { ...ask, pendingOthers: 10 })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', code: 'too_many_pending_sender_ids', param: 'sender_id' },
    });
    expect(request(given(requested), { ...ask, pendingOthers: 10 })).toMatchObject({
      ok: false,
      error: { code: 'sender_id_exists' },
    });
  });

  it('cannot decide a sender ID nobody asked for', () => {
    expect(approve(given(), { senderId: 'Nope', now })).toMatchObject({
      ok: false,
      error: { code: 'resource_missing' },
    });
  });
});
