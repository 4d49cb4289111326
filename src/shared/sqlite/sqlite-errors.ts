import { StoreUnavailableError } from '../event-store/event-store.port';

/** SQLite result codes that mean "the store cannot do its job now", not "the caller erred". */
const UNAVAILABLE = /^SQLITE_(FULL|IOERR|CANTOPEN|BUSY|LOCKED|READONLY|CORRUPT|NOTADB|PROTOCOL)/;

export function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && UNAVAILABLE.test(code);
}

/** Runs a store call, turning SQLite's infrastructure failures into StoreUnavailableError. */
export function guarded<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isUnavailable(error) || (error as Error)?.message?.includes('database connection is not open')) {
      throw new StoreUnavailableError(`${what}: ${(error as { code?: string }).code ?? 'closed'}`, error);
    }
    throw error;
  }
}
