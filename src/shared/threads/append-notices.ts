import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { EventRow, SqliteEventStore } from '../event-store/sqlite/sqlite-event-store.adapter';
import { THREAD_BRIDGE, ThreadBridge } from './thread-bridge';

/**
 * Each thread of the server tells the other when it appended to the embedded event store, so
 * the other's subscriptions read the new events at once rather than at their next poll (what an
 * accepted message waits for before it is dispatched). One notice per turn of the event loop,
 * carrying the rows committed in it: the worker takes them as its own store's appends instead of
 * reading them back from the log (a head and a tail query, and the parse, per wake-up were 15%
 * of the worker).
 * Only the HTTP thread tells: the worker runs every subscription, so the HTTP thread has none to
 * wake (a notice there cost both threads a message per append for nothing).
 * EventStoreDB pushes appends to every subscriber by itself.
 */
@Injectable()
export class AppendNotices implements OnApplicationBootstrap {
  /** The rows committed since the last notice; null when no notice is due. */
  private rows: EventRow[] | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(THREAD_BRIDGE) private readonly bridge: ThreadBridge,
  ) {}

  onApplicationBootstrap(): void {
    const store = this.events;
    if (this.config.threadRole === 'all' || !(store instanceof SqliteEventStore)) return;
    if (this.config.threadRole === 'api') store.onCommitted((rows) => this.noticeAppended(rows));
    else this.bridge.onNotice('appended', (rows) => store.notifyAppended(rows as EventRow[]));
  }

  private noticeAppended(rows: readonly EventRow[]): void {
    if (this.rows) {
      for (const row of rows) this.rows.push(row);
      return;
    }
    this.rows = [...rows];
    setImmediate(() => {
      const due = this.rows;
      this.rows = null;
      this.bridge.notify('appended', due);
    });
  }
}
