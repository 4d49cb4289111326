import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { EVENT_STORE, EventStore, StoreUnavailableError } from '../event-store/event-store.port';
import { READ_STORE, ReadStore } from '../read-store/read-store.port';

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /** The process is up. */
  @Get('health')
  @HttpCode(200)
  health() {
    return { object: 'health', status: 'ok' };
  }

  /** The stores answer: a load balancer sends traffic only when this is 200. */
  @Get('ready')
  async ready() {
    try {
      await Promise.all([this.events.ping(), this.reads.ping()]);
    } catch (error) {
      throw error instanceof StoreUnavailableError
        ? error
        : new StoreUnavailableError('store check failed', error);
    }
    return { object: 'readiness', status: 'ready', event_store: 'ok', read_store: 'ok' };
  }
}
