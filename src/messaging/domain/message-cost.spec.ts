import { describeCost, messageCost } from './message-cost';
import { encodeBody } from './segments';

describe('messageCost', () => {
  it('counts a GSM-7 message as the send counts it, one credit per segment', () => {
    const cost = messageCost('Your order has shipped');
    expect(cost).toEqual({
      characters: 22,
      encoding: 'GSM-7',
      segments: 1,
      credits: 1,
      ucs2Characters: [],
      tooLong: false,
    });
    expect(describeCost(cost)).toBe('22 characters · GSM-7 · 1 segment · 1 credit');
  });

  it('names the characters that forced UCS-2, each once, and counts an emoji as one character', () => {
    const cost = messageCost('Thanks 🎉 see you 🎉 → soon');
    expect(cost.encoding).toBe('UCS-2');
    expect(cost.ucs2Characters).toEqual(['🎉', '→']);
    expect(cost.characters).toBe(25);
    expect(describeCost(cost)).toBe(
      '25 characters · UCS-2 · 1 segment · 1 credit. UCS-2 because of “🎉” “→”',
    );
  });

  it('agrees with encodeBody on segments across the limits, and flags more than 10 segments', () => {
    for (const text of [
      'a'.repeat(160),
      'a'.repeat(161),
      '€'.repeat(80),
      'é'.repeat(70) + 'ж',
      '😀'.repeat(35),
    ]) {
      expect(messageCost(text).segments).toBe(encodeBody(text).segments);
    }
    expect(messageCost('a'.repeat(161)).segments).toBe(2);
    const long = messageCost('ж'.repeat(671));
    expect(long.segments).toBe(11);
    expect(long.tooLong).toBe(true);
    expect(describeCost(long)).toContain('Too long: at most 10 segments');
  });
});
