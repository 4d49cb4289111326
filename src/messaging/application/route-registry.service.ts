import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection } from '../../shared/projections/projection';
import { THREAD_BRIDGE, ThreadBridge } from '../../shared/threads/thread-bridge';
import { BUILT_IN_ROUTES, Route } from '../domain/routing';

/** Operator routes are events in one stream; the latest route for a prefix wins. */
export const ROUTES_STREAM = 'routes';
const ROUTES_CHANGED = 'routes.changed';

export type RouteAddedData = { readonly prefix: string; readonly carrier: string; readonly addedAt: string };

/**
 * The routes a send is validated against: built-ins plus the operator's (`routes:add`). Read at
 * send time from a small cache, which AddRoute and the routes projection (which also sees appends
 * made by the CLI in another process) invalidate, in the server's other thread too: no code
 * change and no restart needed.
 */
@Injectable()
export class RouteRegistry {
  private cache: Promise<Route[]> | null = null;
  private generation = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(THREAD_BRIDGE) private readonly bridge: ThreadBridge,
  ) {
    bridge.onNotice(ROUTES_CHANGED, () => this.forget());
  }

  /** Operator routes, oldest first (resolveRoute lets the later of equal prefixes win). */
  operatorRoutes(): Promise<Route[]> {
    if (!this.cache) {
      const generation = this.generation;
      const loading = this.load();
      this.cache = loading;
      // A failed load is not cached; nor is one that an invalidation overtook.
      loading.then(
        () => {
          if (generation !== this.generation && this.cache === loading) this.cache = null;
        },
        () => {
          if (this.cache === loading) this.cache = null;
        },
      );
    }
    return this.cache;
  }

  /** Built-in routes followed by the operator's. */
  async routes(): Promise<Route[]> {
    return [...BUILT_IN_ROUTES, ...(await this.operatorRoutes())];
  }

  /** Routes changed: the cache is dropped here and in the server's other thread. */
  invalidate(): void {
    this.forget();
    this.bridge.notify(ROUTES_CHANGED);
  }

  private forget(): void {
    this.generation++;
    this.cache = null;
  }

  private async load(): Promise<Route[]> {
    const routes: Route[] = [];
    let from = 0n;
    for (;;) {
      const page = await this.events.readStream(ROUTES_STREAM, { fromRevision: from, limit: 1000 });
      for (const event of page) {
        if (event.type !== 'RouteAdded') continue;
        const data = event.data as RouteAddedData;
        routes.push({ prefix: data.prefix, carrier: data.carrier });
      }
      if (page.length < 1000) return routes;
      from = page[page.length - 1].revision + 1n;
    }
  }
}

/** Drops the route cache whenever a route is added, by this process or another one. */
export function routesProjection(registry: RouteRegistry): Projection {
  return {
    name: 'message-routes',
    collections: [],
    filter: { streamPrefixes: [ROUTES_STREAM], eventTypes: ['RouteAdded'] },
    apply(_event: RecordedEvent) {
      registry.invalidate();
    },
  };
}
