import {
  csvLine,
  CsvProblem,
  CsvReader,
  CsvRecord,
  isBlankRecord,
  MAX_RECORD_CHARS,
  readCsv,
} from './csv-reader';

/** Reads `text` pushed in pieces cut at every one of `cuts` (positions), as a stream would hand it. */
function readInPieces(text: string, cuts: number[]): CsvRecord[] {
  const reader = new CsvReader();
  const out: CsvRecord[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(...reader.push(text.slice(from, cut)));
    from = cut;
  }
  return [...out, ...reader.end()];
}

describe('the streaming CSV reader', () => {
  it('reads fields, quotes, doubled quotes and line breaks inside quotes, with the line each record starts on', () => {
    const text =
      'phone,name,note\r\n+233241234567,"Mensah, Ama","She said ""hi"""\r\n+233241234568,Kofi,"two\nlines"\n+233241234569,,\n';
    expect(readCsv(text)).toEqual([
      { line: 1, fields: ['phone', 'name', 'note'] },
      { line: 2, fields: ['+233241234567', 'Mensah, Ama', 'She said "hi"'] },
      { line: 3, fields: ['+233241234568', 'Kofi', 'two\nlines'] },
      { line: 5, fields: ['+233241234569', '', ''] },
    ]);
  });

  it('gives the same records whatever pieces the text arrives in (a CRLF or a quote split across pieces)', () => {
    const text = '\uFEFFa,b\r\n"x,""y""",z\r\n"multi\r\nline",w\rlast,row';
    const whole = readCsv(text);
    expect(whole).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x,"y"', 'z'] },
      { line: 3, fields: ['multi\r\nline', 'w'] },
      { line: 5, fields: ['last', 'row'] },
    ]);
    for (let cut = 1; cut < text.length; cut++) expect(readInPieces(text, [cut])).toEqual(whole);
    expect(
      readInPieces(
        text,
        Array.from({ length: text.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(whole);
  });

  it('drops a byte order mark, keeps a last record without a line end, and tells blank records', () => {
    expect(readCsv('\uFEFFto\n0241234567')).toEqual([
      { line: 1, fields: ['to'] },
      { line: 2, fields: ['0241234567'] },
    ]);
    const [blank, spaces, filled] = readCsv('\n , \nx\n');
    expect([isBlankRecord(blank), isBlankRecord(spaces), isBlankRecord(filled)]).toEqual([true, true, false]);
  });

  it('refuses a quote never closed, naming its line, and a record longer than its limit', () => {
    expect(() => readCsv('a,b\n1,"open\n2,3\n')).toThrow(
      new CsvProblem(2, 'A quote opened on line 2 is never closed.'),
    );
    const reader = new CsvReader();
    expect(() => reader.push(`a,"${'x'.repeat(MAX_RECORD_CHARS)}`)).toThrow(CsvProblem);
  });

  it('writes records it reads back exactly (csvLine)', () => {
    const cells = ['12', 'plain', 'with, comma', 'with "quote"', 'two\nlines', '', 'cr\rhere'];
    expect(readCsv(`${csvLine(cells)}\n`)).toEqual([{ line: 1, fields: cells }]);
  });
});
