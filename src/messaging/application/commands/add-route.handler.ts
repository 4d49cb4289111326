import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { parseRoute, Route } from '../../domain/routing';
import { RouteAddedData, RouteRegistry, ROUTES_STREAM } from '../route-registry.service';
import { AddRoute } from './add-route.command';

@CommandHandler(AddRoute)
export class AddRouteHandler implements ICommandHandler<AddRoute, Route> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly registry: RouteRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ prefix, carrier }: AddRoute): Promise<Route> {
    const parsed = parseRoute({ prefix, carrier });
    if (!parsed.ok) throw parsed.error;
    const data: RouteAddedData = { ...parsed.value, addedAt: this.clock.now().toISOString() };
    await this.events.append(ROUTES_STREAM, [{ type: 'RouteAdded', data }], 'any');
    this.registry.invalidate();
    return parsed.value;
  }
}
