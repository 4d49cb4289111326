/**
 * Layering rules (DESIGN.md, habit 4): the domain is pure TypeScript, the shared kernel knows
 * no context. Checked by `npm run depcruise` and by test/architecture/layering.e2e.ts.
 * Unit tests and their helpers (*.spec.ts, *.test-support.ts) may use what they need.
 */
const TESTS = '\\.(spec|test-support)\\.ts$';
const DOMAIN = '^src/[^/]+/domain/';
/** A package as resolved (node_modules/…) or, if it cannot be resolved, by its bare name. */
const pkg = (names) => `(^|/)(node_modules/)?(${names.join('|')})(/|$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-not-to-frameworks',
      comment:
        'Deciders, events and value objects are pure: no Nest, no database or server clients, no transport. ' +
        'Move the I/O to an adapter behind a port, or to the application layer.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: TESTS },
      to: {
        path: pkg([
          '@nestjs/[^/]+',
          'better-sqlite3',
          'mongodb',
          '@eventstore/db-client',
          'fastify',
          '@fastify/[^/]+',
          'smpp',
        ]),
      },
    },
    {
      name: 'domain-not-to-outer-layers',
      comment:
        'The domain depends on nothing outside it: not on adapters, controllers, application services, ' +
        'the console, the CLI, nor on a particular event store or read store.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: TESTS },
      to: {
        path: [
          '^src/[^/]+/(adapters|http|application)/',
          '^src/(console|cli)/',
          '^src/shared/event-store/(sqlite|eventstoredb)/',
          '^src/shared/read-store/(sqlite|mongodb)/',
        ],
      },
    },
    {
      name: 'no-circular-domain',
      comment: 'Modules of a domain must not depend on each other in a cycle.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: DOMAIN, circular: true },
    },
    {
      name: 'entry-points-through-the-buses',
      comment:
        'Controllers, console pages and CLI commands dispatch every use case through the CommandBus and ' +
        'QueryBus: from an application layer they import only command and query classes (and types), ' +
        'never a service to call directly (issue 15: one visible path per use case).',
      severity: 'error',
      from: { path: ['^src/[^/]+/http/', '^src/cli/'], pathNot: TESTS },
      to: {
        path: '^src/[^/]+/application/',
        pathNot: '^src/[^/]+/application/(commands|queries)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'verify-through-messaging-commands',
      comment:
        "Verify asks messaging for its SMS only through messaging's commands and queries (and its " +
        'domain types): never its services, stores, adapters or read models (issue 30).',
      severity: 'error',
      from: { path: '^src/verify/', pathNot: TESTS },
      to: {
        path: '^src/messaging/',
        pathNot: [
          '^src/messaging/application/(commands|queries)/',
          '^src/messaging/domain/',
          '^src/messaging/http/idempotency-key\\.header\\.ts$',
        ],
      },
    },
    {
      name: 'messaging-not-to-verify',
      comment: 'The arrow points from verify to messaging only: messaging knows nothing of one-time codes.',
      severity: 'error',
      from: { path: '^src/messaging/' },
      to: { path: '^src/verify/' },
    },
    {
      name: 'shared-not-to-contexts',
      comment: 'The shared kernel is used by the contexts and never the other way round.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(accounts|wallet|messaging|billing|verify|console|cli)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a domain that imports a Nest type still depends on Nest.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
