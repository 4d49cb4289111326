import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const SECRET_BOX = Symbol('SECRET_BOX');

const KEY_SHAPE = /^[0-9a-f]{64}$/i;

/**
 * Seals short secrets that must be recorded in the log but never readable there: a password
 * reset's token, written by the request and opened by the mail outbox to put the link in the
 * mail. AES-256-GCM, a fresh 96-bit nonce per seal; `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox: the key must be 32 bytes');
    this.#key = key;
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Throws when the seal was not made with this key or was changed. */
  open(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined)
      throw new Error('SecretBox: not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /**
   * A 32-byte key of its own for another purpose (HKDF-SHA256 over this box's key, `purpose` as
   * the info): what a feature uses when the operator set no secret of its own for it. Knowing the
   * derived key tells nothing about this one.
   */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), purpose, 32));
  }

  toJSON(): string {
    return 'SecretBox';
  }
}

/**
 * `SECRET_BOX_KEY` (64 hex characters) when set, as every process of a deployment sharing one
 * store must have; else a key made once and kept in `keyFile` (mode 0600) beside the embedded
 * stores, so a single machine needs no setting.
 */
export function loadSecretBoxKey(envKey: string | null, keyFile: string): Buffer {
  if (envKey) {
    if (!KEY_SHAPE.test(envKey))
      throw new Error('SECRET_BOX_KEY must be 64 hexadecimal characters (32 bytes)');
    return Buffer.from(envKey, 'hex');
  }
  try {
    const stored = readFileSync(keyFile, 'utf8').trim();
    if (KEY_SHAPE.test(stored)) return Buffer.from(stored, 'hex');
    throw new Error(`${keyFile} does not hold a 64-hex-character key`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(keyFile), { recursive: true });
  const key = randomBytes(32);
  try {
    // 'wx': two processes starting at once on one DATA_DIR keep the first one's key.
    writeFileSync(keyFile, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(keyFile, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  }
}
