import { columnName, defaultCountry, importColumns, importedNumber, importRow } from './import-rows';

const columns = (header: string[]) => {
  const result = importColumns(header);
  if (!result.ok) throw result.error;
  return result.value;
};

describe('what an import file means', () => {
  it('finds the number column by any of its names, the name, and makes every other column a field', () => {
    expect(columns(['Name', 'Phone', 'First Name', 'Class (2026)', ''])).toEqual({
      phone: 1,
      name: 0,
      fields: [
        [2, 'first_name'],
        [3, 'class_2026'],
      ],
      width: 5,
    });
    expect(columns(['to']).phone).toBe(0);
    expect(columns(['phone_number', 'phone']).fields).toEqual([[1, 'phone']]);
    expect(columnName('  E-mail Address ')).toBe('e_mail_address');
  });

  it('refuses a file without a number column, with a column named twice, or with more than 20 fields', () => {
    expect(importColumns(['name', 'class'])).toMatchObject({
      ok: false,
      error: { code: 'missing_phone_column' },
    });
    expect(importColumns(['phone', 'class', 'Class'])).toMatchObject({
      ok: false,
      error: { code: 'duplicate_column' },
    });
    expect(importColumns(['phone', '2nd'])).toMatchObject({
      ok: false,
      error: { code: 'invalid_field_name' },
    });
    const wide = ['phone', ...Array.from({ length: 21 }, (_, i) => `f${i}`)];
    expect(importColumns(wide)).toMatchObject({ ok: false, error: { code: 'too_many_fields' } });
  });

  it('reads local numbers with the default country, and refuses an unknown country', () => {
    expect(importedNumber('024 123 4567', 'GH')).toBe('+233241234567');
    expect(importedNumber('0302-123-456', 'GH')).toBe('+233302123456');
    expect(importedNumber('00233241234567', 'GH')).toBe('+233241234567');
    expect(importedNumber('+233 24 123 4567', null)).toBe('+233241234567');
    expect(importedNumber('07911 123456', 'GB')).toBe('+447911123456');
    expect(defaultCountry('gh')).toEqual({ ok: true, value: 'GH' });
    expect(defaultCountry('XX')).toMatchObject({
      ok: false,
      error: { code: 'invalid_country', param: 'default_country' },
    });
  });

  it('makes a row a contact, or an error by line', () => {
    const c = columns(['phone_number', 'name', 'class', 'house']);
    expect(importRow(2, ['0241234567', ' Ama  Mensah ', 'JSS 2', ''], c, 'GH')).toEqual({
      ok: true,
      row: { line: 2, phoneNumber: '+233241234567', name: 'Ama Mensah', fields: { class: 'JSS 2' } },
    });
    expect(importRow(3, ['0241234567', '', '', ''], c, null)).toMatchObject({
      ok: false,
      error: { line: 3, code: 'invalid_phone_number', message: expect.stringContaining('default_country') },
    });
    expect(importRow(4, ['', 'x', '', ''], c, 'GH')).toMatchObject({
      ok: false,
      error: { code: 'missing_phone_number' },
    });
    expect(importRow(5, ['0241234567'], c, 'GH')).toMatchObject({
      ok: false,
      error: { code: 'invalid_row' },
    });
    expect(importRow(6, ['0241234567', '', 'x'.repeat(201), ''], c, 'GH')).toMatchObject({
      ok: false,
      error: { code: 'invalid_field_value' },
    });
    expect(importRow(7, ['0201234567', '', '', ''], c, 'GH')).toMatchObject({ ok: true });
    expect(importRow(8, ['0301234567', '', '', ''], c, 'GH')).toMatchObject({
      ok: false,
      error: { code: 'invalid_phone_number' },
    });
  });
});
