import {
  MAX_SCHEDULE_AHEAD_MS,
  SendInput,
  validateSend,
  validateSendAt,
  validateSendInput,
} from './message-input';

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

describe('validateSendAt', () => {
  const now = new Date('2026-11-23T10:00:00.000Z');
  const refusalAt = (value: unknown) => {
    const result = validateSendAt(value, now);
    if (result.ok) throw new Error(`expected a refusal of ${String(value)}`);
    return { code: result.error.code, param: result.error.param, message: result.error.message };
  };

  it('schedules nothing when absent or null', () => {
    expect(validateSendAt(undefined, now)).toEqual({ ok: true, value: null });
    expect(validateSendAt(null, now)).toEqual({ ok: true, value: null });
  });

  it('answers a future RFC 3339 time as ISO-8601 UTC, whatever its zone', () => {
    expect(validateSendAt('2026-11-23T10:00:01Z', now)).toEqual({
      ok: true,
      value: '2026-11-23T10:00:01.000Z',
    });
    expect(validateSendAt('2026-11-23T12:30:00.25+02:00', now)).toEqual({
      ok: true,
      value: '2026-11-23T10:30:00.250Z',
    });
    expect(validateSendAt('2026-11-23t05:00:00-05:30', now)).toEqual({
      ok: true,
      value: '2026-11-23T10:30:00.000Z',
    });
  });

  it('takes up to exactly 30 days ahead and refuses a millisecond more', () => {
    const limit = new Date(now.getTime() + MAX_SCHEDULE_AHEAD_MS).toISOString();
    expect(validateSendAt(limit, now)).toEqual({ ok: true, value: limit });
    expect(refusalAt(new Date(now.getTime() + MAX_SCHEDULE_AHEAD_MS + 1).toISOString())).toEqual({
      code: 'invalid_send_at',
      param: 'send_at',
      message: 'send_at must be at most 30 days ahead',
    });
  });

  it('refuses now and the past', () => {
    for (const past of ['2026-11-23T10:00:00Z', '2026-11-23T09:59:59.999Z', '2020-01-01T00:00:00Z']) {
      expect(refusalAt(past)).toEqual({
        code: 'invalid_send_at',
        param: 'send_at',
        message: 'send_at must be in the future',
      });
    }
  });

  it.each([
    '2026-11-24',
    '2026-11-24T10:00:00',
    '2026-11-24 10:00:00Z',
    '2026-11-24T10:00Z',
    '1795000000',
    'tomorrow',
    '2026-02-30T10:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T10:00:60Z',
    '2026-11-24T10:00:00+2:00',
    '',
  ])('refuses %j, which is not an RFC 3339 date-time with a zone', (value) => {
    expect(refusalAt(value)).toMatchObject({ code: 'invalid_send_at', param: 'send_at' });
  });

  it('refuses a send_at that is not a string', () => {
    expect(refusalAt(1795000000)).toMatchObject({ code: 'parameter_invalid', param: 'send_at' });
  });

  it('is checked after the other fields, and carried on the valid send', () => {
    expect(validateSend(body({ to: 'x', send_at: 'x' }), [], now)).toMatchObject({
      ok: false,
      error: { param: 'to' },
    });
    expect(validateSend(body({ send_at: 'x' }), [], now)).toMatchObject({
      ok: false,
      error: { param: 'send_at' },
    });
    expect(validateSend(body({ send_at: '2026-11-24T10:00:00Z' }), [], now)).toMatchObject({
      ok: true,
      value: { to: '+233241234567', sendAt: '2026-11-24T10:00:00.000Z' },
    });
    expect(validateSend(body(), [], now)).toEqual(validateSendInput(body(), []));
  });
});
