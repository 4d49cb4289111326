import { fold } from '../../shared/decider';
import type { ContactEvent, ContactNumberEvent } from './audience.events';
import { Contact, contactDecider } from './contact.decider';
import {
  claimNumber,
  contactNumberDecider,
  releaseNumber,
  UNWRITTEN_CLAIM_GRACE_MS,
} from './contact-number.decider';

const now = new Date('2026-11-24T10:00:00Z');
const number = '+233241234567';
const claim = (contactId: string, at = now): ContactNumberEvent => ({
  type: 'ContactNumberClaimed',
  data: { walletId: 'wal_1', phoneNumber: number, contactId, claimedAt: at.toISOString(), import: null },
});
const contact = (...events: ContactEvent[]): Contact => fold(contactDecider, events);
const holding = (contactId: string, phoneNumber = number): ContactEvent => ({
  type: 'ContactCreated',
  data: {
    contactId,
    walletId: 'wal_1',
    phoneNumber,
    name: null,
    fields: {},
    groups: [],
    createdAt: now.toISOString(),
    import: null,
  },
});
const cmd = (holder: { state: Contact; exists: boolean } | null, at = now) => ({
  walletId: 'wal_1',
  phoneNumber: number,
  contactId: 'con_new',
  holder,
  now: at,
});

describe('a number of a wallet (the uniqueness guard)', () => {
  it('is claimed when free, and again by the same contact records nothing', () => {
    const free = contactNumberDecider.initialState();
    expect(claimNumber(free, cmd(null))).toMatchObject({
      ok: true,
      value: [{ type: 'ContactNumberClaimed' }],
    });
    const mine = fold(contactNumberDecider, [claim('con_new')]);
    expect(claimNumber(mine, cmd(null))).toEqual({ ok: true, value: [] });
  });

  it('refuses a number a live contact holds: 409 contact_exists on phone_number', () => {
    const held = fold(contactNumberDecider, [claim('con_1')]);
    expect(claimNumber(held, cmd({ state: contact(holding('con_1')), exists: true }))).toMatchObject({
      ok: false,
      error: { kind: 'conflict', code: 'contact_exists', param: 'phone_number' },
    });
    expect(claimNumber(held, cmd(null)).ok).toBe(false);
  });

  it('lets a new contact take a claim its holder no longer backs (deleted, moved to another number)', () => {
    const held = fold(contactNumberDecider, [claim('con_1')]);
    const deleted: ContactEvent = {
      type: 'ContactDeleted',
      data: { contactId: 'con_1', walletId: 'wal_1', phoneNumber: number, deletedAt: now.toISOString() },
    };
    expect(claimNumber(held, cmd({ state: contact(holding('con_1'), deleted), exists: true })).ok).toBe(true);
    expect(
      claimNumber(held, cmd({ state: contact(holding('con_1', '+233200000001')), exists: true })).ok,
    ).toBe(true);
  });

  it('keeps a claim whose contact was never written for a grace, then lets it go', () => {
    const held = fold(contactNumberDecider, [claim('con_1')]);
    const unwritten = { state: contactDecider.initialState(), exists: false };
    expect(claimNumber(held, cmd(unwritten, new Date(now.getTime() + 1000))).ok).toBe(false);
    expect(claimNumber(held, cmd(unwritten, new Date(now.getTime() + UNWRITTEN_CLAIM_GRACE_MS))).ok).toBe(
      true,
    );
  });

  it('is released by its holder only', () => {
    const held = fold(contactNumberDecider, [claim('con_1')]);
    expect(releaseNumber(held, { walletId: 'wal_1', phoneNumber: number, contactId: 'con_2', now })).toEqual(
      [],
    );
    const released = releaseNumber(held, { walletId: 'wal_1', phoneNumber: number, contactId: 'con_1', now });
    expect(fold(contactNumberDecider, [claim('con_1'), ...released]).holder).toBeNull();
  });
});
