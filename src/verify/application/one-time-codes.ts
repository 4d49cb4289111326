import { createHmac, randomInt } from 'node:crypto';

export const ONE_TIME_CODES = Symbol('ONE_TIME_CODES');

/**
 * The codes' secrets, in one place. A code is drawn with the CSPRNG (`crypto.randomInt`, which
 * rejects rather than folds, so every code is equally likely), and is kept only as a keyed hash:
 * HMAC-SHA256 under a key from the environment over the verification id, the send and the code,
 * so a hash read from the log cannot be reversed by trying the 10^n codes without the key, nor
 * be replayed on another verification or send.
 */
export class OneTimeCodes {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length < 32) throw new Error('OneTimeCodes: the key must be at least 32 bytes');
    this.#key = key;
  }

  /** `length` random digits (leading zeros kept). */
  generate(length: number): string {
    return randomInt(0, 10 ** length)
      .toString()
      .padStart(length, '0');
  }

  hash(verificationId: string, send: number, code: string): string {
    return createHmac('sha256', this.#key).update(`${verificationId}:${send}:${code}`).digest('hex');
  }

  toJSON(): string {
    return 'OneTimeCodes';
  }
}
