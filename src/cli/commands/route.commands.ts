import { RouteRegistry } from '../../messaging/application/route-registry.service';
import { BUILT_IN_ROUTES } from '../../messaging/domain/routing';
import { required } from '../cli-args';
import type { CliCommand } from './cli-command';

/** `routes:add --prefix +234 --carrier NAME`: the destination is sendable at once, no restart. */
export const routesAdd: CliCommand = {
  name: 'routes:add',
  usage: 'routes:add --prefix +234 --carrier NAME',
  async run(app, options) {
    const route = await app
      .get(RouteRegistry)
      .add({ prefix: required(options, 'prefix'), carrier: required(options, 'carrier') });
    return { output: { added: route } };
  },
};

/** `routes:list`: the operator's routes (later ones win on equal prefixes) and the built-in ones. */
export const routesList: CliCommand = {
  name: 'routes:list',
  usage: 'routes:list',
  async run(app) {
    const registry = app.get(RouteRegistry);
    registry.invalidate();
    return { output: { routes: await registry.operatorRoutes(), built_in: BUILT_IN_ROUTES } };
  },
};
