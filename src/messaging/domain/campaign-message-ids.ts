import { base62 } from '../../shared/ids';

const CAMPAIGN_PREFIX = 'cmp_';
const MESSAGE_PREFIX = 'msg_';
/** A campaign id's characters after its prefix (newId: 8 of time, 14 random). */
const CAMPAIGN_BODY = 22;
/** Base62 digits of a recipient's place: 62³ = 238,328 places, beyond the 100,000 recipients allowed. */
const PLACE_DIGITS = 3;
const MESSAGE_ID_LENGTH = MESSAGE_PREFIX.length + CAMPAIGN_BODY + PLACE_DIGITS;
/** The highest place an id can name. */
export const MAX_CAMPAIGN_PLACE = 62 ** PLACE_DIGITS - 1;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A campaign's message is named after the campaign and the recipient's place in its recorded list
 * (as a batch's after the batch and the item's place): a campaign resumed after a kill writes the
 * same ids again, so no recipient is ever sent two messages. These ids are 29 characters, where a
 * single send's are 26 and a batch's 28, so the campaign of any message can be told from its id
 * (the campaigns read model counts a message by it), and a campaign's messages can be read by id
 * without an index (`GET /v1/messages?campaign=`).
 */
export function campaignMessageId(campaignId: string, place: number): string {
  return `${MESSAGE_PREFIX}${campaignId.slice(CAMPAIGN_PREFIX.length)}${base62(place, PLACE_DIGITS)}`;
}

/** The campaign and place a message id names, or null when it is not a campaign's message id. */
export function campaignOfMessage(messageId: string): { campaignId: string; place: number } | null {
  if (messageId.length !== MESSAGE_ID_LENGTH || !messageId.startsWith(MESSAGE_PREFIX)) return null;
  const body = messageId.slice(MESSAGE_PREFIX.length, MESSAGE_PREFIX.length + CAMPAIGN_BODY);
  let place = 0;
  for (const c of messageId.slice(MESSAGE_ID_LENGTH - PLACE_DIGITS)) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) return null;
    place = place * 62 + digit;
  }
  return { campaignId: `${CAMPAIGN_PREFIX}${body}`, place };
}
