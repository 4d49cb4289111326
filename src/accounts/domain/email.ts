/** An e-mail as the service keys it: trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{2,}$/;

export const isEmailAddress = (value: unknown): value is string =>
  typeof value === 'string' && EMAIL_SHAPE.test(value.trim());
