import { SendInput, validateSendInput } from './message-input';

const body = (overrides: Partial<Record<keyof SendInput, unknown>> = {}): SendInput => ({
  to: '+233241234567',
  sender_id: 'MyShop',
  message: 'Hello',
  type: 'transactional',
  ...overrides,
});

const refusal = (input: SendInput) => {
  const result = validateSendInput(input, []);
  if (result.ok) throw new Error('expected a refusal');
  return { code: result.error.code, param: result.error.param, kind: result.error.kind };
};

describe('validateSendInput', () => {
  it('answers the checked send with its carrier, encoding, segments and credits', () => {
    expect(validateSendInput(body(), [])).toEqual({
      ok: true,
      value: {
        to: '+233241234567',
        senderId: 'MyShop',
        message: 'Hello',
        type: 'transactional',
        carrier: 'MTN',
        encoding: 'GSM-7',
        segments: 1,
        credits: 1,
      },
    });
  });

  it('charges a credit per segment', () => {
    const result = validateSendInput(
      body({ message: 'ж'.repeat(71), type: 'promotional', to: '+233201234567' }),
      [],
    );
    expect(result).toEqual({
      ok: true,
      value: expect.objectContaining({
        carrier: 'TELECEL',
        encoding: 'UCS-2',
        segments: 2,
        credits: 2,
        type: 'promotional',
      }),
    });
  });

  it.each(['to', 'sender_id', 'message', 'type'] as const)('refuses a missing %s', (param) => {
    expect(refusal(body({ [param]: undefined }))).toEqual({
      code: 'parameter_missing',
      param,
      kind: 'invalid_request',
    });
    expect(refusal(body({ [param]: null }))).toEqual({
      code: 'parameter_missing',
      param,
      kind: 'invalid_request',
    });
  });

  it.each(['to', 'sender_id', 'message', 'type'] as const)('refuses a %s that is not a string', (param) => {
    expect(refusal(body({ [param]: 233241234567 }))).toMatchObject({ code: 'parameter_invalid', param });
    expect(refusal(body({ [param]: ['x'] }))).toMatchObject({ code: 'parameter_invalid', param });
  });

  it('checks to as shape, then validity, then route', () => {
    expect(refusal(body({ to: '0241234567' }))).toMatchObject({ code: 'invalid_phone_number', param: 'to' });
    expect(refusal(body({ to: '+233251234567' }))).toMatchObject({
      code: 'invalid_phone_number',
      param: 'to',
    });
    expect(refusal(body({ to: '+2348031234567' }))).toMatchObject({
      code: 'unsupported_destination',
      param: 'to',
    });
  });

  it('sends to another country once a route is added', () => {
    const result = validateSendInput(body({ to: '+2348031234567' }), [{ prefix: '+234', carrier: 'NG' }]);
    expect(result).toEqual({ ok: true, value: expect.objectContaining({ carrier: 'NG' }) });
  });

  it('accepts the sandbox numbers', () => {
    for (const to of ['+233200000001', '+233200000002', '+233200000003', '+233200000004']) {
      expect(validateSendInput(body({ to }), []).ok).toBe(true);
    }
  });

  it('refuses a bad sender id', () => {
    expect(refusal(body({ sender_id: 'AB' }))).toMatchObject({
      code: 'invalid_sender_id',
      param: 'sender_id',
    });
  });

  it('refuses an empty message', () => {
    expect(refusal(body({ message: '' }))).toMatchObject({ code: 'invalid_message', param: 'message' });
  });

  it('allows ten segments and refuses eleven', () => {
    expect(validateSendInput(body({ message: 'a'.repeat(1530) }), [])).toMatchObject({
      ok: true,
      value: { segments: 10, credits: 10 },
    });
    expect(refusal(body({ message: 'a'.repeat(1531) }))).toMatchObject({
      code: 'message_too_long',
      param: 'message',
    });
    expect(validateSendInput(body({ message: 'ж'.repeat(670) }), [])).toMatchObject({
      ok: true,
      value: { segments: 10 },
    });
    expect(refusal(body({ message: 'ж'.repeat(671) }))).toMatchObject({
      code: 'message_too_long',
      param: 'message',
    });
  });

  it('refuses a type other than transactional or promotional', () => {
    expect(refusal(body({ type: 'marketing' }))).toMatchObject({ code: 'invalid_type', param: 'type' });
    expect(refusal(body({ type: 'Transactional' }))).toMatchObject({ code: 'invalid_type', param: 'type' });
  });

  it('answers the first refusal in field order', () => {
    expect(refusal(body({ to: 'nope', sender_id: 'x', message: '', type: 'y' }))).toMatchObject({
      param: 'to',
    });
    expect(refusal(body({ sender_id: 'x', message: '', type: 'y' }))).toMatchObject({ param: 'sender_id' });
    expect(refusal(body({ message: '', type: 'y' }))).toMatchObject({ param: 'message' });
  });
});
