/** The process environment as configuration reads it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A non-negative whole number from the environment, or `fallback` when unset. */
export function envInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** `true` or `false` (unset: false); anything else is a mistake worth refusing to start over. */
export function envFlag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}
