import { splitIntoParts } from '../../domain/segments';
import { decodeGsm7, encodeGsm7, encodeUcs2, gsm7Length, Gsm7EncodingError, isGsm7 } from './sms-encoding';
import { outbound } from './smpp.test-support';
import { buildSubmitSms, smppAbsoluteTime, sourceAddress } from './submit-sm.builder';

describe('GSM 03.38 encoding', () => {
  it('encodes the basic table one byte per septet', () => {
    expect([...encodeGsm7('@£$ Aa0_')]).toEqual([0x00, 0x01, 0x02, 0x20, 0x41, 0x61, 0x30, 0x11]);
    expect([...encodeGsm7('¤¡§¿à')]).toEqual([0x24, 0x40, 0x5f, 0x60, 0x7f]);
  });

  it('escapes extension characters with 0x1B', () => {
    expect([...encodeGsm7('€[]{}|^~\\')]).toEqual([
      0x1b, 0x65, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x40, 0x1b, 0x14, 0x1b, 0x3d, 0x1b,
      0x2f,
    ]);
    expect(gsm7Length('a€')).toBe(3);
  });

  it('round-trips and refuses characters outside the alphabet', () => {
    const text = 'Hello {world} €5 ÄÖÑÜ ñ @home\n';
    expect(decodeGsm7(encodeGsm7(text))).toBe(text);
    expect(isGsm7('Привет')).toBe(false);
    expect(() => encodeGsm7('ok 😀')).toThrow(Gsm7EncodingError);
  });

  it('encodes UCS-2 as UTF-16BE, keeping surrogate pairs', () => {
    expect(encodeUcs2('Aé😀').toString('hex')).toBe('004100e9d83dde00');
  });
});

describe('splitIntoParts (the domain splitter the builder relies on)', () => {
  it('keeps single parts up to 160 septets / 70 units', () => {
    expect(splitIntoParts('a'.repeat(160), 'GSM-7')).toHaveLength(1);
    expect(splitIntoParts('a'.repeat(161), 'GSM-7')).toHaveLength(2);
    expect(splitIntoParts('€'.repeat(80), 'GSM-7')).toHaveLength(1);
    expect(splitIntoParts('é'.repeat(70), 'UCS-2')).toHaveLength(1);
    expect(splitIntoParts('é'.repeat(71), 'UCS-2')).toHaveLength(2);
  });

  it('fills GSM parts to 153 septets without splitting an extension character', () => {
    const parts = splitIntoParts('a'.repeat(152) + '€' + 'b'.repeat(10), 'GSM-7');
    expect(parts[0]).toBe('a'.repeat(152));
    expect(parts[1]).toBe('€' + 'b'.repeat(10));
    expect(splitIntoParts('x'.repeat(459), 'GSM-7')).toHaveLength(3);
    expect(splitIntoParts('x'.repeat(460), 'GSM-7')).toHaveLength(4);
  });

  it('fills UCS-2 parts to 67 units without splitting a surrogate pair', () => {
    const parts = splitIntoParts('é'.repeat(66) + '😀' + 'é'.repeat(5), 'UCS-2');
    expect(parts[0]).toBe('é'.repeat(66));
    expect(parts[1]).toBe('😀' + 'é'.repeat(5));
    expect(splitIntoParts('é'.repeat(134), 'UCS-2')).toHaveLength(2);
  });
});

describe('buildSubmitSms', () => {
  it('builds a single GSM part with explicit data_coding 0 and raw bytes', () => {
    const result = buildSubmitSms(
      outbound('+233200000001', 'Hi {there}', { validUntil: '2026-03-04T05:06:07.890Z' }),
      7,
    );
    if (!result.ok) throw new Error(result.errorMessage);
    expect(result.parts).toHaveLength(1);
    expect(result.parts[0]).toMatchObject({
      destination_addr: '233200000001',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      source_addr: 'MyShop',
      source_addr_ton: 5,
      source_addr_npi: 0,
      esm_class: 0,
      data_coding: 0,
      registered_delivery: 1,
      validity_period: '260304050607800+',
    });
    expect(result.parts[0].short_message).toEqual(encodeGsm7('Hi {there}'));
  });

  it('adds a 6-byte concatenation UDH and esm_class 0x40 to every part', () => {
    const result = buildSubmitSms(outbound('+233200000001', 'y'.repeat(300)), 0x2a);
    if (!result.ok) throw new Error(result.errorMessage);
    expect(result.parts).toHaveLength(2);
    result.parts.forEach((part, i) => {
      const bytes = part.short_message as Buffer;
      expect([...bytes.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0x2a, 2, i + 1]);
      expect(part.esm_class).toBe(0x40);
    });
  });

  it('refuses a body whose parts differ from the segments paid for', () => {
    const result = buildSubmitSms({ ...outbound('+233200000001', 'z'.repeat(200)), segments: 1 }, 1);
    expect(result).toMatchObject({ ok: false, errorCode: 'segment_count_mismatch' });
  });

  it('refuses GSM-7 bodies with characters outside the alphabet', () => {
    const result = buildSubmitSms(outbound('+233200000001', 'Привет', { encoding: 'GSM-7', segments: 1 }), 1);
    expect(result).toMatchObject({ ok: false, errorCode: 'invalid_encoding' });
  });

  it('sends numeric senders as international numbers, others as alphanumeric', () => {
    expect(sourceAddress('+233241234567')).toEqual({
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: '233241234567',
    });
    expect(sourceAddress('1234')).toEqual({ source_addr_ton: 1, source_addr_npi: 1, source_addr: '1234' });
    expect(sourceAddress('My Shop 2')).toEqual({
      source_addr_ton: 5,
      source_addr_npi: 0,
      source_addr: 'My Shop 2',
    });
  });

  it('formats SMPP absolute time in UTC', () => {
    expect(smppAbsoluteTime('2026-12-31T23:59:58.123Z')).toBe('261231235958100+');
    expect(smppAbsoluteTime('garbage')).toBe('');
  });
});
