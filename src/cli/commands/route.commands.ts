import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AddRoute } from '../../messaging/application/commands/add-route.command';
import { Routes } from '../../messaging/application/queries/routes.query';
import { required } from '../cli-args';
import type { CliCommand } from './cli-command';

/** `routes:add --prefix +234 --carrier NAME`: the destination is sendable at once, no restart. */
export const routesAdd: CliCommand = {
  name: 'routes:add',
  usage: 'routes:add --prefix +234 --carrier NAME',
  options: ['prefix', 'carrier'],
  async run(app, options) {
    const route = await app
      .get(CommandBus)
      .execute(new AddRoute(required(options, 'prefix'), required(options, 'carrier')));
    return { output: { added: route } };
  },
};

/** `routes:list`: the operator's routes (later ones win on equal prefixes) and the built-in ones. */
export const routesList: CliCommand = {
  name: 'routes:list',
  usage: 'routes:list',
  options: [],
  async run(app) {
    return { output: await app.get(QueryBus).execute(new Routes()) };
  },
};
