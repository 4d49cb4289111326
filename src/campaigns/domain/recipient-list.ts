import { csvLine, readCsv } from '../../audiences/domain/csv-reader';
import type { Encoding } from '../../messaging/ports/carrier.port';
import type { RecipientRow } from './campaign.events';

/**
 * A chunk of a campaign's recipient list as it is stored: CSV text, one line per recipient
 * (number, name, personalised text, carrier, encoding, segments). A thousand recipients held as
 * arrays of small strings cost several times their size in every thread that keeps the log's
 * recent events in memory; one string costs its size. A contact's name is never empty (it is a
 * name or none), so an empty cell is none.
 */
export function encodeRecipients(rows: readonly RecipientRow[]): string {
  return rows
    .map(([to, name, text, carrier, encoding, segments]) =>
      csvLine([to, name ?? '', text, carrier, encoding, String(segments)]),
    )
    .join('\n');
}

export function decodeRecipients(csv: string): RecipientRow[] {
  return readCsv(csv).map(({ fields: [to, name, text, carrier, encoding, segments] }) => [
    to,
    name === '' ? null : name,
    text,
    carrier,
    encoding as Encoding,
    Number(segments),
  ]);
}
