import { type Permission, type Role, ROLES, roleCan } from '../../src/accounts/domain/roles';
import { CONSOLE_NAV } from '../../src/console/http/console-nav';
import { ConsoleBrowser } from '../support/console-form';
import { consoleRoutes } from '../support/console-routes';
import { createMerchant, type Merchant } from '../support/merchant';
import { addMember } from '../support/team';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Every console route and form, for every role, over HTTP (API.md, "Teams": checked on the server
 * for every console route and form; a forbidden one is 403). The table below says what each route
 * needs; the routes themselves are found from the running app, so a page added without a row here
 * fails the first test, and one whose @Requires does not match its row fails the second.
 */
const PUBLIC = 'public';
const ROUTES: Record<string, Permission | typeof PUBLIC> = {
  'GET /console/assets/:file': PUBLIC,
  'GET /console/signin': PUBLIC,
  'POST /console/signin': PUBLIC,
  'GET /console/signup': PUBLIC,
  'POST /console/signup': PUBLIC,
  'POST /console/signout': PUBLIC,
  'GET /console/forgot-password': PUBLIC,
  'POST /console/forgot-password': PUBLIC,
  'GET /console/reset-password': PUBLIC,
  'POST /console/reset-password': PUBLIC,
  'GET /console/invitations': PUBLIC,
  'POST /console/invitations/accept': PUBLIC,

  'GET /console': 'read',
  'POST /console/environment': 'read',
  'POST /console/account': 'read',
  'GET /console/keys': 'read',
  'GET /console/messages': 'read',
  'GET /console/messages/:id': 'read',
  'GET /console/batches/:id': 'read',
  'GET /console/wallet': 'read',
  'GET /console/statement': 'read',
  'GET /console/statement.csv': 'read',
  'GET /console/webhooks': 'read',
  'GET /console/compliance': 'read',
  'GET /console/members': 'read',
  'GET /console/audit': 'read',
  'GET /console/contacts': 'read',
  'GET /console/contacts/:id': 'read',
  'GET /console/contact-imports/:id': 'read',
  'GET /console/groups': 'read',
  'GET /console/templates': 'read',
  'GET /console/verifications': 'read',
  'GET /console/campaigns': 'read',
  'GET /console/campaigns/:id': 'read',
  'GET /console/campaigns/:id/report.csv': 'read',

  'GET /console/send': 'send',
  'POST /console/send': 'send',
  'POST /console/messages/:id/cancel': 'send',
  'GET /console/send-many': 'send',
  'POST /console/send-many/preview': 'send',
  'POST /console/send-many': 'send',
  'POST /console/compliance/opt-outs': 'send',
  'POST /console/compliance/opt-outs/remove': 'send',
  'POST /console/contacts': 'send',
  'POST /console/contacts/import': 'send',
  'POST /console/contacts/:id': 'send',
  'POST /console/contacts/:id/delete': 'send',
  'POST /console/groups': 'send',
  'POST /console/groups/:id/delete': 'send',
  'POST /console/templates': 'send',
  'POST /console/templates/:id/delete': 'send',
  'POST /console/verifications': 'send',
  'POST /console/verifications/:id/check': 'send',
  'GET /console/campaigns/new': 'send',
  'POST /console/campaigns/preview': 'send',
  'POST /console/campaigns': 'send',
  'POST /console/campaigns/:id/cancel': 'send',
  'POST /console/campaigns/:id/retry': 'send',

  'POST /console/keys': 'develop',
  'POST /console/keys/:id/revoke': 'develop',
  'POST /console/compliance/sender-ids': 'develop',

  'GET /console/billing': 'billing',
  'POST /console/billing/checkout': 'billing',
  'GET /console/billing/return': 'billing',

  'POST /console/members/invite': 'manage_members',
  'POST /console/members/invitations/:id/cancel': 'manage_members',
  'POST /console/members/:id/role': 'manage_members',
  'POST /console/members/:id/remove': 'manage_members',

  'POST /console/members/:id/owner': 'own',
};

jest.setTimeout(240_000);

describe('Console: every route and form, for every role', () => {
  let t: TestApp;
  let owner: Merchant;
  const browsers = new Map<Role, ConsoleBrowser>();
  const csrf = new Map<Role, string>();

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createMerchant(t, undefined, { approvedSenderIds: [] });
    for (const role of ROLES) {
      const browser = new ConsoleBrowser(t.baseUrl);
      if (role === 'owner') await browser.signIn(owner.email, owner.password);
      else {
        const member = await addMember(t, owner, role);
        await browser.signIn(member.email, member.password);
      }
      browsers.set(role, browser);
      csrf.set(role, await browser.csrf('/console'));
    }
  });
  afterAll(() => t?.close());

  it('shows each role the navigation entries it may open, and only those', () => {
    for (const entry of CONSOLE_NAV)
      expect({ [entry.href]: ROUTES[`GET ${entry.href}`] }).toEqual({ [entry.href]: entry.permission });
  });

  it('knows what every console route needs, and every row is a route', () => {
    const served = consoleRoutes(t).map((r) => `${r.method} ${r.path}`);
    expect(served.filter((route) => !(route in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((route) => !served.includes(route))).toEqual([]);
  });

  const guarded = Object.entries(ROUTES).filter(([, permission]) => permission !== PUBLIC) as [
    string,
    Permission,
  ][];
  const cases = guarded.flatMap(([route, permission]) =>
    ROLES.map((role) => [route, role, permission] as const),
  );

  it.each(cases)('%s as %s (needs %s)', async (route, role, permission) => {
    const [method, pattern] = route.split(' ');
    const path = pattern.replace(/:[a-z_]+/g, 'x_unknown');
    const browser = browsers.get(role)!;
    // Only the CSRF token: a form that acts also needs its one-time token, so an allowed role's
    // request is refused before anything is done (400), and a forbidden one is 403 before that.
    const answer = await browser.go(method, path, method === 'POST' ? { _csrf: csrf.get(role)! } : undefined);
    if (roleCan(role, permission)) {
      expect(answer.status).not.toBe(403);
      expect([200, 303, 400, 404]).toContain(answer.status);
    } else {
      expect(answer.status).toBe(403);
      expect(answer.html).toContain(`Your role (${role}) cannot`);
    }
  });

  it('sends a signed-out visitor of any guarded route to sign in', async () => {
    const visitor = new ConsoleBrowser(t.baseUrl);
    for (const [route] of guarded.filter(([r]) => r.startsWith('GET'))) {
      const answer = await visitor.go('GET', route.split(' ')[1].replace(/:[a-z_]+/g, 'x_unknown'));
      expect({ route, status: answer.status, location: answer.location }).toMatchObject({
        status: 303,
        location: expect.stringMatching(/^\/console\/signin/),
      });
    }
  });

  it('shows each role only the navigation and forms it may use', async () => {
    const viewer = await browsers.get('viewer')!.go('GET', '/console/keys');
    expect(viewer.html).not.toContain('action="/console/keys"');
    expect(viewer.html).toContain('id="keys-read-only"');
    expect(viewer.html).not.toContain('href="/console/send"');
    const developer = await browsers.get('developer')!.go('GET', '/console/keys');
    expect(developer.html).toContain('action="/console/keys"');
    const billing = await browsers.get('billing')!.go('GET', '/console/members');
    expect(billing.html).not.toContain('id="invite-form"');
    expect(billing.html).toContain('href="/console/billing"');
    const admin = await browsers.get('admin')!.go('GET', '/console/members');
    expect(admin.html).toContain('id="invite-form"');
    expect(admin.html).not.toContain('/owner"');
  });
});
