import type { Decider, DomainEvent } from '../../shared/decider';
import { ok, type Result } from '../../shared/result';
import type { CheckoutProvider, ReusableCard } from './checkout.events';

/** The card auto top-up charges: the newest one a successful payment of the wallet saved. */
export const SAVED_CARD_STREAM_PREFIX = 'saved-card-';
export const savedCardStream = (walletId: string) => `${SAVED_CARD_STREAM_PREFIX}${walletId}`;

export type CardSaved = DomainEvent<
  'CardSaved',
  { walletId: string; checkoutId: string; provider: CheckoutProvider; card: ReusableCard; savedAt: string }
>;

export interface SavedCard {
  readonly saved: CardSaved['data'] | null;
}

export const savedCardDecider: Decider<SavedCard, CardSaved> = {
  initialState: () => ({ saved: null }),
  evolve: (_state, event) => ({ saved: event.data }),
};

/** Saves the card a payment was made with; the same checkout's card again changes nothing. */
export function saveCard(state: SavedCard, data: CardSaved['data']): Result<CardSaved[], never> {
  if (state.saved?.checkoutId === data.checkoutId) return ok([]);
  return ok([{ type: 'CardSaved', data }]);
}

/** The card a TEST payment saves: the test provider always accepts it (no money moves under TEST). */
export const TEST_CARD: ReusableCard = {
  authorizationCode: 'AUTH_test_card',
  brand: 'visa',
  last4: '4242',
  expMonth: '12',
  expYear: '2030',
  email: '',
};

/** What the API and the console show of a card: never its authorization code. */
export const cardSummary = (card: ReusableCard) => ({
  brand: card.brand,
  last4: card.last4,
  exp_month: card.expMonth,
  exp_year: card.expYear,
});
