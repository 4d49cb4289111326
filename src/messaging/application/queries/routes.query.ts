import { Query } from '@nestjs/cqrs';
import type { Route } from '../../domain/routing';

export interface RouteTable {
  /** The operator's routes, oldest first: a later route for the same prefix wins. */
  readonly routes: readonly Route[];
  readonly built_in: readonly Route[];
}

/** Every route a send is checked against, as stored now (not as this process last cached it). */
export class Routes extends Query<RouteTable> {}
