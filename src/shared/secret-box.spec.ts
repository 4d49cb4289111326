import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSecretBoxKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(Buffer.alloc(32, 7));

  it('opens what it sealed, and each seal of one secret differs', () => {
    const a = box.seal('acct_1.s3cret');
    expect(a).not.toContain('s3cret');
    expect(a).not.toEqual(box.seal('acct_1.s3cret'));
    expect(box.open(a)).toBe('acct_1.s3cret');
  });

  it('refuses a seal that was changed or made with another key', () => {
    const sealed = box.seal('token');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tokem').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow();
    expect(() => box.open('plain')).toThrow('not a sealed secret');
  });

  it('derives a key of its own per purpose, the same every time, telling nothing of its own key', () => {
    const key = box.deriveKey('verify-codes');
    expect(key).toHaveLength(32);
    expect(key).toEqual(new SecretBox(Buffer.alloc(32, 7)).deriveKey('verify-codes'));
    expect(key).not.toEqual(box.deriveKey('another purpose'));
    expect(key).not.toEqual(new SecretBox(Buffer.alloc(32, 8)).deriveKey('verify-codes'));
    expect(key).not.toEqual(Buffer.alloc(32, 7));
  });

  it('takes the key from the environment, else makes one file once and keeps it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
    try {
      expect(loadSecretBoxKey('ab'.repeat(32), join(dir, 'k'))).toEqual(Buffer.alloc(32, 0xab));
      expect(() => loadSecretBoxKey('short', join(dir, 'k'))).toThrow('SECRET_BOX_KEY');
      const made = loadSecretBoxKey(null, join(dir, 'k'));
      expect(loadSecretBoxKey(null, join(dir, 'k'))).toEqual(made);
      expect(readFileSync(join(dir, 'k'), 'utf8').trim()).toBe(made.toString('hex'));
      expect(statSync(join(dir, 'k')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
