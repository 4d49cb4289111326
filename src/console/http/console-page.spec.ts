import 'reflect-metadata';
import { ExecutionContext, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Role } from '../../accounts/domain/roles';
import { ConsoleCampaignsController } from './console-campaigns.controller';
import { ConsoleComplianceController } from './console-compliance.controller';
import type { ConsoleRequest } from './console-http';
import { ConsolePageError } from './console-http';
import { ConsolePermissionGuard } from './console-page';
import { ConsoleAuditController } from './console-audit.controller';
import { ConsoleMembersController } from './console-members.controller';
import { ConsoleWalletCareController } from './console-wallet-care.controller';
import { ConsoleController } from './console.controller';

/**
 * Every controller made with @ConsolePages(); a new page controller belongs in this list
 * (test/e2e/console-permissions.e2e.ts finds them all from the running app, over HTTP).
 */
const PAGE_CONTROLLERS = [
  ConsoleController,
  ConsoleCampaignsController,
  ConsoleComplianceController,
  ConsoleWalletCareController,
  ConsoleMembersController,
  ConsoleAuditController,
];

const routesOf = (controller: new (...args: never[]) => unknown) => {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && Reflect.hasMetadata(PATH_METADATA, prototype[name] as object))
    .map((name) => {
      const handler = prototype[name] as () => unknown;
      return {
        name: `${controller.name}.${name}`,
        handler,
        controller,
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number],
      };
    });
};

const contextFor = (route: ReturnType<typeof routesOf>[number], role: Role) => {
  const request = {
    method: route.method,
    url: '/console/x',
    consoleSession: { id: 's', handle: 'h', environment: 'TEST' },
    consoleAccount: { id: 'acct_1', email: 'a@example.com', wallets: { TEST: 'wal_t', LIVE: 'wal_l' } },
    consoleRole: role,
  } as unknown as ConsoleRequest;
  return {
    getHandler: () => route.handler,
    getClass: () => route.controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
};

const guard = new ConsolePermissionGuard(new Reflector());
const allRoutes = PAGE_CONTROLLERS.flatMap(routesOf);
/** Forms every member may use: choosing the environment and the account the pages show. */
const EVERYONE_MAY = new Set([
  'ConsoleController.chooseEnvironment',
  'ConsoleMembersController.chooseAccount',
]);

describe('console pages: the permission each route needs', () => {
  it('finds the routes', () => {
    expect(allRoutes.length).toBeGreaterThan(15);
  });

  it.each(
    allRoutes.filter((r) => r.method !== 'GET' && !EVERYONE_MAY.has(r.name)).map((r) => [r.name, r] as const),
  )('%s acts only for a role that may: the owner passes, a viewer is refused', (_name, route) => {
    expect(guard.canActivate(contextFor(route, 'owner'))).toBe(true);
    expect(() => guard.canActivate(contextFor(route, 'viewer'))).toThrow(ConsolePageError);
  });

  it('lets every member choose the environment', () => {
    for (const name of EVERYONE_MAY)
      expect(
        guard.canActivate(
          contextFor(
            allRoutes.find((r) => r.name === name)!,
            'viewer',
          ),
        ),
      ).toBe(true);
  });

  it('lets a viewer read, keeps a billing member from sending and a sender from buying', () => {
    const route = (name: string) => allRoutes.find((r) => r.name === name)!;
    expect(guard.canActivate(contextFor(route('ConsoleController.messageList'), 'viewer'))).toBe(true);
    expect(() => guard.canActivate(contextFor(route('ConsoleController.send'), 'billing'))).toThrow(
      expect.objectContaining({
        status: 403,
        detail: expect.stringContaining('Your role (billing) cannot send'),
      }),
    );
    expect(() => guard.canActivate(contextFor(route('ConsoleController.startCheckout'), 'sender'))).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(guard.canActivate(contextFor(route('ConsoleController.mintKey'), 'developer'))).toBe(true);
  });

  it('refuses everyone on a route that acts but names no permission (fails closed)', () => {
    class Unmarked {
      act() {}
    }
    const route = {
      name: 'Unmarked.act',
      handler: Unmarked.prototype.act,
      controller: Unmarked,
      method: 'POST',
    };
    expect(() => guard.canActivate(contextFor(route, 'owner'))).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });
});
