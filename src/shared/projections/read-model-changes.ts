import { Injectable } from '@nestjs/common';

/**
 * The one signal that says the read models changed, for everything that polls them (the
 * dispatcher's pending list, the expiry and orphan sweeps, the webhook and mail outboxes): the
 * projection runner tells it which collections a commit of this process wrote, and which ones
 * another process may have written (a projection that found its checkpoint moved and resumed
 * from the store). A poller subscribes to the collections it reads and wakes on them instead of
 * looking every few hundred milliseconds (PollingLoop's `wakeOn`); the log's own changes, this
 * process's appends, the other thread's and other processes', reach the projections first
 * (SqliteEventStore's watch of its file, EventStoreDB's push), so the collections change after.
 *
 * Per thread: the projections and the pollers that read them run in the same thread (the worker,
 * or the only one).
 */
@Injectable()
export class ReadModelChanges {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Calls `listener` whenever a commit writes one of `collections`; answers the unsubscribe. */
  on(collections: readonly string[], listener: () => void): () => void {
    for (const collection of collections) {
      let set = this.listeners.get(collection);
      if (!set) this.listeners.set(collection, (set = new Set()));
      set.add(listener);
    }
    return () => {
      for (const collection of collections) this.listeners.get(collection)?.delete(listener);
    };
  }

  /** These collections were written (or may have been, by another process). Each listener hears once. */
  changed(collections: Iterable<string>): void {
    if (this.listeners.size === 0) return;
    const heard = new Set<() => void>();
    for (const collection of collections) {
      const set = this.listeners.get(collection);
      if (set) for (const listener of set) heard.add(listener);
    }
    for (const listener of heard) listener();
  }
}
