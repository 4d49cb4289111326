import { err, ok } from '../../shared/result';
import type { DomainError } from '../../shared/domain-error';
import { isCodeShape, maskedText, renderCode, validateVerificationInput } from './verification-input';

const refused = (code: string, param: string) =>
  err(expect.objectContaining<Partial<DomainError>>({ code, param }));
const body = { to: '+233241234567', sender_id: 'MyShop' };

describe('verification input', () => {
  it('takes API.md defaults', () => {
    expect(validateVerificationInput(body)).toEqual(
      ok({
        to: '+233241234567',
        senderId: 'MyShop',
        template: 'Your verification code is {{code}}',
        codeLength: 6,
        expiresInSeconds: 600,
        maxChecks: 5,
      }),
    );
  });

  it('needs {{code}} exactly once in message', () => {
    expect(validateVerificationInput({ ...body, message: 'No code here' })).toEqual(
      refused('invalid_message', 'message'),
    );
    expect(validateVerificationInput({ ...body, message: '{{code}} {{code}}' })).toEqual(
      refused('invalid_message', 'message'),
    );
    expect(validateVerificationInput({ ...body, message: 'Code: {{code}}' })).toMatchObject({ ok: true });
  });

  it.each([
    ['code_length', 3, 'invalid_code_length'],
    ['code_length', 11, 'invalid_code_length'],
    ['code_length', 5.5, 'invalid_code_length'],
    ['expires_in', 59, 'invalid_expires_in'],
    ['expires_in', 1801, 'invalid_expires_in'],
    ['max_checks', 0, 'invalid_max_checks'],
    ['max_checks', 11, 'invalid_max_checks'],
  ])('refuses %s %p', (param, value, code) => {
    expect(validateVerificationInput({ ...body, [param]: value })).toEqual(refused(code, param));
  });

  it('takes the bounds', () => {
    expect(
      validateVerificationInput({ ...body, code_length: 10, expires_in: 60, max_checks: 10 }),
    ).toMatchObject({
      ok: true,
      value: { codeLength: 10, expiresInSeconds: 60, maxChecks: 10 },
    });
  });

  it('renders the code, or its mask for every read', () => {
    expect(renderCode('Code $& {{code}}', '123456')).toBe('Code $& 123456');
    expect(maskedText('Your verification code is {{code}}', 6)).toBe('Your verification code is ******');
  });

  it('knows a code by its shape: 4 to 10 digits', () => {
    expect(isCodeShape('1234')).toBe(true);
    expect(isCodeShape('1234567890')).toBe(true);
    expect(isCodeShape('123')).toBe(false);
    expect(isCodeShape('12a456')).toBe(false);
  });
});
