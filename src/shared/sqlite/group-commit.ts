import type Database from 'better-sqlite3';
import { guarded } from './sqlite-errors';

interface Pending<Request, Outcome> {
  readonly request: Request;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions<Request, Outcome> {
  /** What `guarded` calls the operation when SQLite fails (e.g. 'append'). */
  readonly operation: string;
  /** Writes one request inside the group's transaction; it runs in a savepoint of its own. */
  readonly write: (request: Request) => Outcome;
  /** An error that refuses its own request only; any other error fails the whole group. */
  readonly isRefusal?: (error: unknown) => boolean;
  /** Called once the group is committed, before any promise settles, with what was written. */
  readonly onCommitted?: (written: readonly { request: Request; outcome: Outcome }[]) => void;
}

/**
 * Writes requested in one turn of the event loop are committed together: one IMMEDIATE
 * transaction, each write inside its own savepoint, so a refused write rolls back alone while
 * any other error rolls back (and rejects) the whole group. Paying for BEGIN, COMMIT and the WAL
 * write once a turn instead of once a write was most of what a busy store spent.
 */
export class GroupCommit<Request, Outcome> {
  private pending: Pending<Request, Outcome>[] = [];
  private readonly group;

  constructor(
    db: Database.Database,
    private readonly options: GroupCommitOptions<Request, Outcome>,
  ) {
    // better-sqlite3 runs a transaction function called inside another one as a savepoint.
    const one = db.transaction(options.write);
    this.group = db.transaction((batch: readonly Pending<Request, Outcome>[], outcomes: unknown[]) => {
      for (const { request } of batch) {
        try {
          outcomes.push(one(request));
        } catch (error) {
          if (!options.isRefusal?.(error)) throw error;
          outcomes.push(new Refused(error));
        }
      }
    });
  }

  submit(request: Request): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is pending now (before closing, or before a write that must come after it). */
  flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const outcomes: unknown[] = [];
    try {
      guarded(this.options.operation, () => this.group.immediate(batch, outcomes));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    const written: { request: Request; outcome: Outcome }[] = [];
    batch.forEach(({ request }, i) => {
      if (!(outcomes[i] instanceof Refused)) written.push({ request, outcome: outcomes[i] as Outcome });
    });
    this.options.onCommitted?.(written);
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Refused) pending.reject(outcome.error);
      else pending.resolve(outcome as Outcome);
    });
  }
}

/** A refusal caught inside the group, kept apart from outcomes that happen to be errors. */
class Refused {
  constructor(readonly error: unknown) {}
}
