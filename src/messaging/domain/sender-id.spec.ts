import { parseSenderId, senderIdKind } from './sender-id';

describe('parseSenderId', () => {
  it.each([
    ['MyShop', 'alphanumeric'],
    ['ABC', 'alphanumeric'],
    ['My Shop 24', 'alphanumeric'],
    ['Shop1234567', 'alphanumeric'],
    ['1a2', 'alphanumeric'],
    ['123', 'numeric'],
    ['233241234567', 'numeric'],
    ['123456789012345', 'numeric'],
  ])('accepts %p as %s', (value, kind) => {
    expect(parseSenderId(value)).toEqual({ ok: true, value: { value, kind } });
    expect(senderIdKind(value)).toBe(kind);
  });

  it.each([
    ['too short', 'AB'],
    ['too short digits', '12'],
    ['12 alphanumerics', 'MyShopOnline'],
    ['16 digits', '1234567890123456'],
    ['12 characters with digits and a letter', '12345678901a'],
    ['spaces only', '   '],
    ['digits and spaces only', '12 34'],
    ['punctuation', 'My-Shop'],
    ['non-ASCII letters', 'Café'],
    ['empty', ''],
  ])('refuses %s', (_, value) => {
    expect(parseSenderId(value)).toEqual({
      ok: false,
      error: expect.objectContaining({
        kind: 'invalid_request',
        code: 'invalid_sender_id',
        param: 'sender_id',
      }),
    });
    expect(senderIdKind(value)).toBeNull();
  });
});
