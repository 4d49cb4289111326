import type { Encoding } from '../ports/carrier.port';
import { plural } from '../../shared/wording';
import { encodeBody, isGsm7, MAX_SEGMENTS } from './segments';

/**
 * What a message body costs, as a merchant sees it while typing: the same `encodeBody` the send
 * and the quote count with, plus what the page needs to explain it. Pure, importing only
 * `segments.ts` and the shared wording, so the console ships this very code to the browser
 * (console/browser/) and the counter words its counts as the pages do.
 */
export interface MessageCost {
  /** Characters as a person counts them (code points: an emoji is one). */
  readonly characters: number;
  readonly encoding: Encoding;
  readonly segments: number;
  /** One credit per segment (API.md). */
  readonly credits: number;
  /** The distinct characters GSM-7 cannot carry, in order of appearance: why it is UCS-2. */
  readonly ucs2Characters: readonly string[];
  /** More than MAX_SEGMENTS: the send would be refused. */
  readonly tooLong: boolean;
}

export function messageCost(message: string): MessageCost {
  const { encoding, segments } = encodeBody(message);
  const ucs2Characters: string[] = [];
  let characters = 0;
  for (const ch of message) {
    characters += 1;
    if (encoding === 'UCS-2' && !ucs2Characters.includes(ch) && !isGsm7(ch)) ucs2Characters.push(ch);
  }
  return {
    characters,
    encoding,
    segments,
    credits: segments,
    ucs2Characters,
    tooLong: segments > MAX_SEGMENTS,
  };
}

/** The one-line summary the send forms show (server-rendered, and the same words from the script). */
export function describeCost(cost: MessageCost): string {
  const parts = [
    plural(cost.characters, 'character'),
    cost.encoding,
    plural(cost.segments, 'segment'),
    plural(cost.credits, 'credit'),
  ];
  let text = parts.join(' · ');
  if (cost.ucs2Characters.length > 0)
    text += `. UCS-2 because of ${cost.ucs2Characters.map((c) => `“${c}”`).join(' ')}`;
  if (cost.tooLong) text += `. Too long: at most ${MAX_SEGMENTS} segments`;
  return text;
}
