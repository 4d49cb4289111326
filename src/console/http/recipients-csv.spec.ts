import fc from 'fast-check';
import { MAX_RECIPIENT_ROWS, parseRecipientsCsv } from './recipients-csv';

/** How a spreadsheet writes a field: quoted when it must be. */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

describe('parseRecipientsCsv', () => {
  it('reads to,message rows and skips a header row', () => {
    expect(parseRecipientsCsv('to,message\n+233241234567,Hello\n+233201234567,Bye\n')).toEqual({
      rows: [
        { line: 2, to: '+233241234567', message: 'Hello' },
        { line: 3, to: '+233201234567', message: 'Bye' },
      ],
      problems: [],
    });
  });

  it('reads a file without a header, CRLF line ends and a byte order mark', () => {
    expect(parseRecipientsCsv('\uFEFF+233241234567,Hi\r\n+233201234567,Yo').rows).toEqual([
      { line: 1, to: '+233241234567', message: 'Hi' },
      { line: 2, to: '+233201234567', message: 'Yo' },
    ]);
  });

  it('keeps commas, quotes and line breaks inside quoted fields, and counts lines from where a row starts', () => {
    const file = 'to,message\n+233241234567,"Hi, ""Ama""\nsee you"\n+233201234567,Bye\n';
    expect(parseRecipientsCsv(file).rows).toEqual([
      { line: 2, to: '+233241234567', message: 'Hi, "Ama"\nsee you' },
      { line: 4, to: '+233201234567', message: 'Bye' },
    ]);
  });

  it('leaves the message out where a row has none, so the common message goes', () => {
    expect(parseRecipientsCsv('+233241234567\n+233201234567,\n').rows).toEqual([
      { line: 1, to: '+233241234567' },
      { line: 2, to: '+233201234567' },
    ]);
  });

  it('names a row with too many columns and keeps the others', () => {
    const parsed = parseRecipientsCsv('+233241234567,a,b\n+233201234567,ok\n');
    expect(parsed.problems).toEqual([{ line: 1, problem: 'Expected two columns (to,message), found 3.' }]);
    expect(parsed.rows).toEqual([{ line: 2, to: '+233201234567', message: 'ok' }]);
  });

  it('skips blank lines', () => {
    expect(parseRecipientsCsv('\n+233241234567,a\n\n  \n').rows).toEqual([
      { line: 2, to: '+233241234567', message: 'a' },
    ]);
  });

  it('refuses an empty file, a header alone and an unclosed quote', () => {
    expect(parseRecipientsCsv('').refused).toBe('The file has no rows.');
    expect(parseRecipientsCsv('to,message\n').refused).toBe('The file has no rows.');
    expect(parseRecipientsCsv('+233241234567,ok\n+233201234567,"never closed\n').refused).toBe(
      'A quote opened on line 2 is never closed.',
    );
  });

  it('takes a full batch and refuses a file with more rows than one batch carries', () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => `+23324${String(1000000 + i)},m`).join('\n');
    expect(parseRecipientsCsv(rows(MAX_RECIPIENT_ROWS)).rows).toHaveLength(MAX_RECIPIENT_ROWS);
    const over = parseRecipientsCsv(rows(MAX_RECIPIENT_ROWS + 1));
    expect(over.rows).toEqual([]);
    expect(over.refused).toMatch(/1001 rows; one batch takes at most 1000/);
  });

  it('reads back any rows a spreadsheet writes, whatever their messages hold', () => {
    const to = fc.stringMatching(/^\+233[0-9]{9}$/);
    const message = fc.string({
      unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r\n', 'é', '😀'),
      minLength: 1,
      maxLength: 20,
    });
    fc.assert(
      fc.property(
        fc.array(fc.record({ to, message }), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (rows, crlf) => {
          const file = rows.map((r) => `${r.to},${csvField(r.message)}`).join(crlf ? '\r\n' : '\n');
          const parsed = parseRecipientsCsv(file);
          expect(parsed.problems).toEqual([]);
          expect(parsed.rows.map((r) => ({ to: r.to, message: r.message }))).toEqual(rows);
        },
      ),
    );
  });
});
