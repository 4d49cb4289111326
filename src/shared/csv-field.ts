/**
 * A CSV field for a file a person opens in a spreadsheet: quoted when it holds a comma, quote or
 * line break, and text that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a
 * carriage return first) led by an apostrophe, so a contact's name can never run as one. A plain
 * signed number (an E.164 phone number) is no formula and is left as it is.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^[+-]\d+$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
