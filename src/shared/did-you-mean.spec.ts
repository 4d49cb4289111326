import { didYouMean, editDistance } from './did-you-mean';

describe('didYouMean', () => {
  const sendFields = ['to', 'sender_id', 'message', 'type', 'send_at'];

  it('reads camelCase and dashes as snake_case', () => {
    expect(didYouMean('sendAt', sendFields)).toBe('send_at');
    expect(didYouMean('senderId', sendFields)).toBe('sender_id');
    expect(didYouMean('send-at', sendFields)).toBe('send_at');
  });

  it('suggests a field a letter or two off, in proportion to its length', () => {
    expect(didYouMean('mesage', sendFields)).toBe('message');
    expect(didYouMean('sender', sendFields)).toBe('sender_id');
    expect(didYouMean('tpye', sendFields)).toBe('type');
    expect(didYouMean('too', sendFields)).toBe('to');
  });

  it('suggests nothing when nothing is close', () => {
    expect(didYouMean('callback_url', sendFields)).toBeNull();
    expect(didYouMean('x', ['events', 'url'])).toBeNull();
    expect(didYouMean('a'.repeat(10_000), sendFields)).toBeNull();
  });

  it('counts insertions, deletions, substitutions and swapped neighbours', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    expect(editDistance('tpye', 'type')).toBe(1);
  });
});
