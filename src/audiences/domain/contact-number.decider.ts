import type { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { ContactNumberEvent, ImportMark } from './audience.events';
import { Contact, holdsNumber } from './contact.decider';

/** Who holds a number of a wallet, and since when. */
export interface ContactNumber {
  readonly holder: string | null;
  readonly claimedAt: string | null;
  readonly importMark: ImportMark | null;
}

export const contactNumberDecider: Decider<ContactNumber, ContactNumberEvent> = {
  initialState: () => ({ holder: null, claimedAt: null, importMark: null }),
  evolve(state, event) {
    if (event.type === 'ContactNumberClaimed')
      return { holder: event.data.contactId, claimedAt: event.data.claimedAt, importMark: event.data.import };
    return event.data.contactId === state.holder
      ? { holder: null, claimedAt: null, importMark: null }
      : state;
  },
};

/**
 * A claim whose contact was never written is kept this long before another contact may take the
 * number: where the store cannot write the claim and the contact in one transaction (EventStoreDB),
 * the contact follows the claim within moments, unless its process died in between.
 */
export const UNWRITTEN_CLAIM_GRACE_MS = 30_000;

export const contactExists = (phoneNumber: string, holder: string) =>
  new DomainError(
    'conflict',
    'contact_exists',
    `A contact with the number ${phoneNumber} already exists (${holder})`,
    'phone_number',
  );

export interface ClaimNumber {
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly contactId: string;
  /** The holder's contact as its stream now says (needed when the number has a holder). */
  readonly holder: { readonly state: Contact; readonly exists: boolean } | null;
  readonly now: Date;
  readonly import?: ImportMark;
}

/**
 * Claims the number for the contact, unless a live contact holds it (`409 contact_exists`). A
 * claim left behind by a contact that was deleted or moved to another number (a crash between
 * two appends where the store has no transactions across streams) no longer holds.
 */
export function claimNumber(
  state: ContactNumber,
  cmd: ClaimNumber,
): Result<ContactNumberEvent[], DomainError> {
  if (state.holder === cmd.contactId) return ok([]);
  if (state.holder !== null) {
    // Without the holder's stream read, the claim is taken to hold.
    if (!cmd.holder) return err(contactExists(cmd.phoneNumber, state.holder));
    const { state: holder, exists } = cmd.holder;
    const unwrittenAndRecent =
      !exists &&
      state.claimedAt !== null &&
      cmd.now.getTime() - Date.parse(state.claimedAt) < UNWRITTEN_CLAIM_GRACE_MS;
    if (holdsNumber(holder, cmd.phoneNumber) || unwrittenAndRecent)
      return err(contactExists(cmd.phoneNumber, state.holder));
  }
  return ok([
    {
      type: 'ContactNumberClaimed',
      data: {
        walletId: cmd.walletId,
        phoneNumber: cmd.phoneNumber,
        contactId: cmd.contactId,
        claimedAt: cmd.now.toISOString(),
        import: cmd.import ?? null,
      },
    },
  ]);
}

/** Released by its holder only; anything else records nothing. */
export function releaseNumber(
  state: ContactNumber,
  cmd: { walletId: string; phoneNumber: string; contactId: string; now: Date },
): ContactNumberEvent[] {
  if (state.holder !== cmd.contactId) return [];
  return [
    {
      type: 'ContactNumberReleased',
      data: {
        walletId: cmd.walletId,
        phoneNumber: cmd.phoneNumber,
        contactId: cmd.contactId,
        releasedAt: cmd.now.toISOString(),
      },
    },
  ];
}
