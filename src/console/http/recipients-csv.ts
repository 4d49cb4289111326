/**
 * The console's "Send to many" file: CSV rows of `to,message` (RFC 4180: commas, fields in
 * double quotes when they hold a comma, a quote or a line break, `""` for a quote inside), with
 * an optional header row, CRLF or LF line ends, and an optional UTF-8 byte order mark (what
 * spreadsheets export). A row may leave `message` empty: the batch's common message then goes.
 * Pure: the page validates the rows as sends afterwards, through the API's own rules.
 */

/** One row that became a batch item; `line` is the file's line number where the row starts. */
export interface RecipientRow {
  readonly line: number;
  readonly to: string;
  readonly message?: string;
}

/** A row the file itself gets wrong (the send rules come later, per item). */
export interface RecipientRowProblem {
  readonly line: number;
  readonly problem: string;
}

export interface RecipientsFile {
  readonly rows: readonly RecipientRow[];
  readonly problems: readonly RecipientRowProblem[];
  /** Set when the whole file is refused (empty, too many rows, an unclosed quote). */
  readonly refused?: string;
}

/** As many rows as one batch carries (API.md). */
export const MAX_RECIPIENT_ROWS = 1000;

interface RawRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

/** Splits the text into records of fields; `unclosedAt` is the line of a quote never closed. */
function records(text: string): { records: RawRecord[]; unclosedAt?: number } {
  const out: RawRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      out.push({ line: recordLine, fields });
      fields = [];
      field = '';
      line++;
      recordLine = line;
    } else field += c;
  }
  if (quoted) return { records: out, unclosedAt: quoteLine };
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    out.push({ line: recordLine, fields });
  }
  return { records: out };
}

const isBlank = (record: RawRecord) => record.fields.every((f) => f.trim() === '');
const isHeader = (record: RawRecord) => record.fields[0]?.trim().toLowerCase() === 'to';

export function parseRecipientsCsv(text: string): RecipientsFile {
  const { records: all, unclosedAt } = records(text.replace(/^\uFEFF/, ''));
  if (unclosedAt !== undefined) {
    return { rows: [], problems: [], refused: `A quote opened on line ${unclosedAt} is never closed.` };
  }
  const filled = all.filter((record) => !isBlank(record));
  const body = filled.length > 0 && isHeader(filled[0]) ? filled.slice(1) : filled;
  if (body.length === 0) return { rows: [], problems: [], refused: 'The file has no rows.' };
  if (body.length > MAX_RECIPIENT_ROWS) {
    return {
      rows: [],
      problems: [],
      refused: `The file has ${body.length} rows; one batch takes at most ${MAX_RECIPIENT_ROWS}. Split it into several files.`,
    };
  }
  const rows: RecipientRow[] = [];
  const problems: RecipientRowProblem[] = [];
  for (const { line, fields } of body) {
    if (fields.length > 2) {
      problems.push({ line, problem: `Expected two columns (to,message), found ${fields.length}.` });
      continue;
    }
    const to = fields[0].trim();
    const message = fields[1];
    rows.push(message === undefined || message === '' ? { line, to } : { line, to, message });
  }
  return { rows, problems };
}
