import { phoneNumberValidator, validatePhoneNumber } from './phone-number';

const code = (to: string, validate = validatePhoneNumber) => {
  const result = validate(to);
  return result.ok ? 'ok' : result.error.code;
};

describe('validatePhoneNumber', () => {
  it.each([
    '+233241234567',
    '+233201234567',
    '+233231234567',
    '+233501234567',
    '+233531234567',
    '+233591234567',
  ])('accepts the Ghana mobile number %s', (to) =>
    expect(validatePhoneNumber(to)).toEqual({ ok: true, value: to }),
  );

  it.each(['+233256123456', '+233257123456'])('accepts +23325 as 256/257: %s', (to) =>
    expect(code(to)).toBe('ok'),
  );

  it.each(['+233250123456', '+233251123456', '+233255123456', '+233258123456', '+233259123456'])(
    'refuses other +23325 numbers: %s',
    (to) => expect(code(to)).toBe('invalid_phone_number'),
  );

  it.each([
    ['a fixed line', '+233302123456'],
    ['a toll-free number', '+233800123456'],
    ['an unassigned range', '+233211234567'],
    ['8 digits after +233', '+23324123456'],
    ['10 digits after +233', '+2332412345678'],
    ['a national 0 after +233', '+2330241234567'],
  ])('refuses %s in Ghana', (_, to) => expect(code(to)).toBe('invalid_phone_number'));

  it.each([
    ['no plus', '233241234567'],
    ['a national number', '0241234567'],
    ['spaces', '+233 24 123 4567'],
    ['7 digits', '+1234567'],
    ['16 digits', '+1234567890123456'],
    ['letters', '+23324123456a'],
    ['an empty string', ''],
  ])('refuses %s as not E.164', (_, to) => {
    const result = validatePhoneNumber(to);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({
        kind: 'invalid_request',
        code: 'invalid_phone_number',
        param: 'to',
      });
      expect(result.error.message).toMatch(/E\.164/);
    }
  });

  it('accepts valid numbers of other countries (routing decides whether they are sent)', () => {
    expect(code('+2348031234567')).toBe('ok');
    expect(code('+14155552671')).toBe('ok');
  });

  it('refuses numbers libphonenumber holds invalid anywhere', () =>
    expect(code('+19999999999')).toBe('invalid_phone_number'));

  it.each(['+233200000001', '+233200000002', '+233200000003', '+233200000004'])(
    'always accepts the sandbox number %s',
    (to) => expect(code(to)).toBe('ok'),
  );

  it.each([
    ['+233302123456', '+233302123456 is not a valid Ghana mobile number'],
    ['+233211234567', '+233211234567 is not a valid phone number'],
    ['+23324123456', 'to must be a Ghana number of +233 and 9 digits, such as +233241234567'],
  ])('refuses %s with the message of the full parse', (to, message) => {
    const result = validatePhoneNumber(to);
    expect(result.ok ? undefined : result.error.message).toBe(message);
  });
});

describe('phoneNumberValidator (the Ghana mobile fast path)', () => {
  const withoutFastPath = phoneNumberValidator(undefined);

  it.each([
    ['+233241234567', 'ok'],
    ['+233256123456', 'ok'],
    ['+233255123456', 'invalid_phone_number'],
    ['+233302123456', 'invalid_phone_number'],
    ['+2348031234567', 'ok'],
    ['+233200000001', 'ok'],
  ])('gives the same answer for %s without it (a libphonenumber-js it cannot read)', (to, answer) => {
    expect(code(to, withoutFastPath)).toBe(answer);
  });

  it('only ever accepts: a number it does not accept still gets the full parse', () => {
    const acceptsNothing = phoneNumberValidator(() => false);
    expect(acceptsNothing('+233241234567')).toEqual({ ok: true, value: '+233241234567' });
    expect(acceptsNothing('+233302123456').ok).toBe(false);
  });

  it('is asked only about the 9-digit national number of a Ghana number that is not a sandbox number', () => {
    const asked: string[] = [];
    const validate = phoneNumberValidator((nationalNumber) => {
      asked.push(nationalNumber);
      return true;
    });
    for (const to of ['+233241234567', '+2348031234567', '+233200000001', '+23324123456', '233241234567'])
      validate(to);
    expect(asked).toEqual(['241234567']);
  });
});
