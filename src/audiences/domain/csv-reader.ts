/**
 * A streaming CSV reader (RFC 4180 as spreadsheets write it): fields separated by commas, in
 * double quotes when they hold a comma, a quote (written `""`) or a line break; CRLF, LF or CR line
 * ends; an optional UTF-8 byte order mark. Text is pushed in pieces as it arrives and whole
 * records come out, each with the line it starts on, so a 20 MiB upload is read with one record
 * in memory at a time. Pure: the caller decodes bytes (a piece may end inside a character).
 */
export interface CsvRecord {
  /** The file's line number (from 1) where the record starts. */
  readonly line: number;
  readonly fields: readonly string[];
}

/** Why a file cannot be read at all (as opposed to a row it gets wrong). */
export class CsvProblem extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvProblem';
  }
}

/** A record longer than this is a broken file (a quote never closed swallowing the rest), not a row. */
export const MAX_RECORD_CHARS = 64 * 1024;

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: the field's end, or the first half of `""`. */
  QuoteInQuoted,
}

export class CsvReader {
  private state = State.FieldStart;
  private field = '';
  private fields: string[] = [];
  private recordChars = 0;
  private line = 1;
  private recordLine = 1;
  private quoteLine = 0;
  /** The previous piece ended with CR: an LF starting this one belongs to the same line end. */
  private afterCr = false;
  /** The last character read inside quotes was CR (counted as a line end already; an LF after it is not). */
  private quotedCr = false;
  private started = false;

  /** Reads a piece of the text; answers the records it completed. */
  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let i = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < text.length; i++) {
      const c = text[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') continue;
      }
      if (++this.recordChars > MAX_RECORD_CHARS)
        throw new CsvProblem(
          this.recordLine,
          `The row on line ${this.recordLine} is longer than ${MAX_RECORD_CHARS / 1024} KiB: is a quote left open?`,
        );
      switch (this.state) {
        case State.Quoted:
          if (c === '"') this.state = State.QuoteInQuoted;
          else {
            if (c === '\r' || (c === '\n' && !this.quotedCr)) this.line++;
            this.field += c;
          }
          this.quotedCr = c === '\r';
          break;
        case State.QuoteInQuoted:
          if (c === '"') {
            this.field += '"';
            this.state = State.Quoted;
            break;
          }
          this.state = State.Unquoted; // the closing quote; what follows is read as usual
          this.unquoted(c, text[i + 1], out);
          break;
        case State.FieldStart:
          if (c === '"') {
            this.state = State.Quoted;
            this.quoteLine = this.line;
            break;
          }
          this.state = State.Unquoted;
          this.unquoted(c, text[i + 1], out);
          break;
        default:
          this.unquoted(c, text[i + 1], out);
      }
    }
    return out;
  }

  /** The end of the text: the last record, if it has no line end; a quote still open is a CsvProblem. */
  end(): CsvRecord[] {
    if (this.state === State.Quoted)
      throw new CsvProblem(this.quoteLine, `A quote opened on line ${this.quoteLine} is never closed.`);
    if (this.field === '' && this.fields.length === 0 && this.state === State.FieldStart) return [];
    this.fields.push(this.field);
    const record = { line: this.recordLine, fields: this.fields };
    this.field = '';
    this.fields = [];
    this.state = State.FieldStart;
    return [record];
  }

  private unquoted(c: string, next: string | undefined, out: CsvRecord[]): void {
    if (c === ',') {
      this.fields.push(this.field);
      this.field = '';
      this.state = State.FieldStart;
      return;
    }
    if (c === '\n' || c === '\r') {
      if (c === '\r') {
        if (next === '\n') this.afterCr = true;
        else if (next === undefined) this.afterCr = true; // the LF may start the next piece
      }
      this.fields.push(this.field);
      out.push({ line: this.recordLine, fields: this.fields });
      this.field = '';
      this.fields = [];
      this.state = State.FieldStart;
      this.recordChars = 0;
      this.line++;
      this.recordLine = this.line;
      return;
    }
    this.field += c;
  }
}

/** A record with nothing in it (an empty line, or only commas and spaces): skipped, not an error. */
export const isBlankRecord = (record: CsvRecord): boolean => record.fields.every((f) => f.trim() === '');

/** One record as CSV text (no line end): cells quoted only when they must be, as the reader reads them back. */
export function csvLine(cells: readonly string[]): string {
  return cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
}

/** Every record of a whole text (a chunk the reader wrote with csvLine). */
export function readCsv(text: string): CsvRecord[] {
  const reader = new CsvReader();
  return [...reader.push(text), ...reader.end()];
}
