import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { ProjectionsService } from '../projections/projections.service';
import { MetricsRegistry } from './metrics.registry';

/** How far each projection running in this process is behind the log, read at every scrape. */
@Injectable()
export class ProjectionMetrics {
  constructor(
    metrics: MetricsRegistry,
    projections: ProjectionsService,
    @Inject(EVENT_STORE) events: EventStore,
  ) {
    metrics.gaugeAtScrape(
      'sms_projection_lag',
      "The log's head position minus the position each running projection has reached.",
      ['projection'],
      async () => {
        const head = await events.headPosition();
        return Object.entries(projections.positions()).map(([projection, reached]) => ({
          labels: { projection },
          value: Number(head > reached ? head - reached : 0n),
        }));
      },
    );
  }
}
