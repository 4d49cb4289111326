import { BatchInput, validateBatchInput } from './batch-input';
import { validateSendInput } from './message-input';

const NOW = new Date('2026-11-23T12:00:00Z');

const batch = (overrides: Partial<BatchInput> = {}): BatchInput => ({
  sender_id: 'MyShop',
  type: 'transactional',
  messages: [{ to: '+233241234567', message: 'Hello' }],
  ...overrides,
});

const refusalOf = (input: BatchInput) => {
  const result = validateBatchInput(input, [], NOW);
  if (result.ok) throw new Error('expected the whole batch refused');
  return { code: result.error.code, param: result.error.param };
};

const itemsOf = (input: BatchInput) => {
  const result = validateBatchInput(input, [], NOW);
  if (!result.ok) throw new Error(`expected items, got ${result.error.code}`);
  return result.value.map((item) =>
    item.ok ? { ok: item.value.to } : { code: item.error.code, param: item.error.param },
  );
};

describe('validateBatchInput', () => {
  it('checks each item exactly as a single send with the shared sender_id and type', () => {
    const result = validateBatchInput(batch(), [], NOW);
    expect(result.ok && result.value[0]).toEqual(
      validateSendInput(
        { to: '+233241234567', sender_id: 'MyShop', message: 'Hello', type: 'transactional' },
        [],
      ),
    );
  });

  it('names the field of the item at fault, with the code a single send would get', () => {
    expect(
      itemsOf(
        batch({
          messages: [
            { to: '+233241234567', message: 'ok' },
            { to: 'nope', message: 'x' },
            { to: '+447911123456', message: 'x' },
            { to: '+233241234567', message: '' },
            { to: '+233241234567', message: 'x'.repeat(1531) },
            { message: 'x' },
            { to: 5, message: 'x' },
            'not an object',
            { to: '+233241234567' },
          ],
        }),
      ),
    ).toEqual([
      { ok: '+233241234567' },
      { code: 'invalid_phone_number', param: 'messages[1].to' },
      { code: 'unsupported_destination', param: 'messages[2].to' },
      { code: 'invalid_message', param: 'messages[3].message' },
      { code: 'message_too_long', param: 'messages[4].message' },
      { code: 'parameter_missing', param: 'messages[5].to' },
      { code: 'parameter_invalid', param: 'messages[6].to' },
      { code: 'parameter_invalid', param: 'messages[7]' },
      { code: 'parameter_missing', param: 'messages[8].message' },
    ]);
  });

  it('uses the top-level message where an item has none, and the item’s own where it has one', () => {
    const result = validateBatchInput(
      batch({
        message: 'Shared text',
        messages: [{ to: '+233241234567' }, { to: '+233201234567', message: 'Own text' }],
      }),
      [],
      NOW,
    );
    expect(result.ok && result.value.map((i) => i.ok && i.value.message)).toEqual([
      'Shared text',
      'Own text',
    ]);
  });

  it('refuses the whole batch for what every item shares', () => {
    expect(refusalOf(batch({ sender_id: 'x' }))).toEqual({ code: 'invalid_sender_id', param: 'sender_id' });
    expect(refusalOf(batch({ sender_id: undefined }))).toEqual({
      code: 'parameter_missing',
      param: 'sender_id',
    });
    expect(refusalOf(batch({ type: 'marketing' }))).toEqual({ code: 'invalid_type', param: 'type' });
    expect(refusalOf(batch({ message: '' }))).toEqual({ code: 'invalid_message', param: 'message' });
    expect(refusalOf(batch({ message: 'y'.repeat(1531) }))).toEqual({
      code: 'message_too_long',
      param: 'message',
    });
  });

  it('schedules every valid item for the batch send_at, and refuses the whole batch for a bad one', () => {
    const result = validateBatchInput(
      batch({
        send_at: '2026-11-24T09:30:00+01:00',
        messages: [{ to: '+233241234567', message: 'Hi' }, { to: 'x' }],
      }),
      [],
      NOW,
    );
    expect(result.ok && result.value.map((i) => (i.ok ? i.value.sendAt : i.error.param))).toEqual([
      '2026-11-24T08:30:00.000Z',
      'messages[1].to',
    ]);
    expect(refusalOf(batch({ send_at: '2026-11-23T11:59:59Z' }))).toEqual({
      code: 'invalid_send_at',
      param: 'send_at',
    });
    expect(refusalOf(batch({ send_at: 'tomorrow' }))).toEqual({ code: 'invalid_send_at', param: 'send_at' });
    expect(refusalOf(batch({ send_at: 5 }))).toEqual({ code: 'parameter_invalid', param: 'send_at' });
  });
});
