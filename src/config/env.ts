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
