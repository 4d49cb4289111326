import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BUILT_IN_ROUTES } from '../../domain/routing';
import { RouteRegistry } from '../route-registry.service';
import { Routes, RouteTable } from './routes.query';

@QueryHandler(Routes)
export class RoutesHandler implements IQueryHandler<Routes, RouteTable> {
  constructor(private readonly registry: RouteRegistry) {}

  async execute(): Promise<RouteTable> {
    this.registry.invalidate();
    return { routes: await this.registry.operatorRoutes(), built_in: BUILT_IN_ROUTES };
  }
}
