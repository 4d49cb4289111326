import fc from 'fast-check';
import type { RecipientRow } from './campaign.events';
import { decodeRecipients, encodeRecipients } from './recipient-list';

describe('a stored chunk of recipients', () => {
  it('reads back every row as written, whatever the texts hold', () => {
    const row = fc.tuple(
      fc.constantFrom('+233241234567', '+233200000001'),
      fc.option(fc.string({ minLength: 1 }), { nil: null }),
      fc.string({ minLength: 1 }),
      fc.constantFrom('MTN', 'AT'),
      fc.constantFrom('GSM-7' as const, 'UCS-2' as const),
      fc.integer({ min: 1, max: 10 }),
    );
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), (rows) => {
        expect(decodeRecipients(encodeRecipients(rows as RecipientRow[]))).toEqual(rows);
      }),
    );
  });

  it('keeps quotes, commas and line breaks inside a personalised text', () => {
    const rows: RecipientRow[] = [
      ['+233241234567', 'Owusu, Efua', 'Dear "Efua",\r\nsee you\nMonday', 'MTN', 'GSM-7', 1],
      ['+233241234568', null, '€5 ✓', 'MTN', 'UCS-2', 1],
    ];
    expect(decodeRecipients(encodeRecipients(rows))).toEqual(rows);
  });
});
