import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ChangeMemberRole } from '../../src/accounts/application/commands/change-member-role.command';
import { RemoveMember } from '../../src/accounts/application/commands/remove-member.command';
import { AccountMembers } from '../../src/accounts/application/queries/account-members.query';
import { memberIdFor } from '../../src/accounts/domain/member-id';
import { ConsoleBrowser } from '../support/console-form';
import { createMerchant } from '../support/merchant';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { addMember, invitationToken, ownerOf } from '../support/team';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

/**
 * Teams over HTTP (API.md, "Teams"; issue 33): invitations mailed through a real SMTP server and
 * accepted with a new password or an existing login; one person in several accounts, switching
 * between them; removing members, changing roles and handing the account over, each ending the
 * member's sessions; the rules the owner's role keeps.
 */
jest.setTimeout(180_000);

const linkIn = (text: string) => /(http:\/\/\S+\/console\/invitations\?token=\S+)/.exec(text)?.[1];
const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

describe('Teams: members, invitations, roles and sessions', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function invite(owner: ConsoleBrowser, email: string, role: string) {
    const tokens = await owner.formTokens('/console/members');
    const page = await owner.go('GET', '/console/members');
    const once = /id="invite-form"[\s\S]*?name="_once" value="([^"]+)"/.exec(page.html)![1];
    return owner.go('POST', '/console/members/invite', { _csrf: tokens._csrf, _once: once, email, role });
  }

  it('invites by mail; the link sets a password, signs the person in with the role, and works once', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const owner = new ConsoleBrowser(t.baseUrl);
    await owner.signIn(m.email, m.password);
    const email = `dev-${Date.now()}@example.com`;
    const sent = await invite(owner, email, 'developer');
    expect(sent).toMatchObject({ status: 303, location: '/console/members' });
    expect((await owner.go('GET', '/console/members')).html).toContain(email);

    const [mail] = await smtp.waitForMails(1, (x) => x.to.includes(email));
    expect(mail.subject).toBe(`${m.email} invited you to their SMS Wallet console`);
    expect(mail.decoded).toContain('as developer');
    const link = linkIn(mail.decoded)!;
    const invited = new ConsoleBrowser(t.baseUrl);
    const page = await invited.go('GET', pathOf(link));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Choose a password');
    const token = /name="token" value="([^"]+)"/.exec(page.html)![1];
    const csrf = await invited.csrf(pathOf(link));
    const tooShort = await invited.go('POST', '/console/invitations/accept', {
      _csrf: csrf,
      token,
      password: 'short',
    });
    expect(tooShort.status).toBe(400);
    const joined = await invited.go('POST', '/console/invitations/accept', {
      _csrf: csrf,
      token,
      password: 'a developer passphrase',
    });
    expect(joined).toMatchObject({ status: 303, location: '/console' });
    const keys = await invited.go('GET', '/console/keys');
    expect(keys.status).toBe(200);
    expect(keys.html).toContain('action="/console/keys"');
    expect((await invited.go('GET', '/console/billing')).status).toBe(403);

    // The link worked once; the new login signs in on its own.
    const again = await invited.go('POST', '/console/invitations/accept', {
      _csrf: await invited.csrf('/console'),
      token,
      password: 'a developer passphrase',
    });
    expect(again.status).toBe(400);
    expect(again.html).toContain('no longer valid');
    await new ConsoleBrowser(t.baseUrl).signIn(email, 'a developer passphrase');
    const team = await t.app.get(QueryBus).execute(new AccountMembers(m.accountId));
    expect(team.members.map((x) => [x.email, x.role])).toEqual([
      [m.email, 'owner'],
      [email, 'developer'],
    ]);
    expect(team.invitations).toEqual([]);
  });

  it('lets one person belong to several accounts: an existing login joins with its own password and switches', async () => {
    const a = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const b = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const commands = t.app.get(CommandBus);
    const { InviteMember } = await import('../../src/accounts/application/commands/invite-member.command');
    await commands.execute(new InviteMember(b.accountId, a.email, 'viewer', ownerOf(b)));
    const path = `/console/invitations?token=${encodeURIComponent(await invitationToken(t, b.accountId, a.email))}`;
    const browser = new ConsoleBrowser(t.baseUrl);
    const page = await browser.go('GET', path);
    expect(page.html).toContain('You already have a login with this e-mail');
    const csrf = await browser.csrf(path);
    const token = /name="token" value="([^"]+)"/.exec(page.html)![1];
    const wrong = await browser.go('POST', '/console/invitations/accept', {
      _csrf: csrf,
      token,
      password: 'not the password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('not the password of the login');
    const joined = await browser.go('POST', '/console/invitations/accept', {
      _csrf: csrf,
      token,
      password: a.password,
    });
    expect(joined.status).toBe(303);
    // Now in b's account as a viewer: its keys page, no form to mint.
    const inB = await browser.go('GET', '/console/keys');
    expect(inB.html).toContain('id="account-switch"');
    expect(inB.html).toContain('id="keys-read-only"');
    expect(
      (await browser.go('POST', '/console/keys', { _csrf: await browser.csrf('/console') })).status,
    ).toBe(403);

    // Switching to their own account: owner there again.
    const switched = await browser.go('POST', '/console/account', {
      _csrf: await browser.csrf('/console'),
      account: a.accountId,
    });
    expect(switched.status).toBe(303);
    expect((await browser.go('GET', '/console/keys')).html).toContain('action="/console/keys"');
    // Not an account of theirs: 404, and nothing changes.
    const stranger = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const refused = await browser.go('POST', '/console/account', {
      _csrf: await browser.csrf('/console'),
      account: stranger.accountId,
    });
    expect(refused.status).toBe(404);
    // Signing in afresh starts in their own account.
    const fresh = new ConsoleBrowser(t.baseUrl);
    await fresh.signIn(a.email, a.password);
    expect((await fresh.go('GET', '/console/keys')).html).toContain('action="/console/keys"');
  });

  it('ends a member’s sessions when their role changes or they are removed; the owner stays the owner', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const sender = await addMember(t, m, 'sender');
    const admin = await addMember(t, m, 'admin');
    const browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(sender.email, sender.password);
    expect((await browser.go('GET', '/console/send')).status).toBe(200);

    const adminActor = { type: 'member' as const, id: admin.memberId, email: admin.email, ip: '127.0.0.1' };
    const commands = t.app.get(CommandBus);
    await commands.execute(new ChangeMemberRole(m.accountId, sender.memberId, 'viewer', adminActor));
    // At once the role is the new one; then the session is over (the process that ends it runs from the log).
    await eventually(async () => {
      const answer = await browser.go('GET', '/console/send');
      return answer.status === 303 && answer.location?.startsWith('/console/signin') ? true : undefined;
    });
    await browser.signIn(sender.email, sender.password);
    expect((await browser.go('GET', '/console/send')).status).toBe(403);

    await commands.execute(new RemoveMember(m.accountId, sender.memberId, adminActor));
    const removed = await browser.go('GET', '/console');
    expect(removed.status).toBe(303);
    const again = await browser.go('POST', '/console/signin', {
      _csrf: await browser.csrf('/console/signin'),
      email: sender.email,
      password: sender.password,
    });
    expect(again.status).toBe(403);
    expect(again.html).toContain('not a member of any account');

    // An admin may not remove or demote the owner; the console answers 403 with why.
    const adminBrowser = new ConsoleBrowser(t.baseUrl);
    await adminBrowser.signIn(admin.email, admin.password);
    const ownerId = memberIdFor(m.accountId, m.email);
    const tokens = await adminBrowser.formTokens('/console/members');
    const removeOwner = await adminBrowser.go(
      'POST',
      `/console/members/${ownerId}/remove`,
      tokens as Record<string, string>,
    );
    expect(removeOwner.status).toBe(403);
    expect(removeOwner.html).toContain('The owner cannot be removed');
    const handOver = await adminBrowser.go(
      'POST',
      `/console/members/${admin.memberId}/owner`,
      tokens as Record<string, string>,
    );
    expect(handOver.status).toBe(403);
  });

  it('hands the account over: one owner, the previous one an admin, the account’s mails to the new owner', async () => {
    const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
    const next = await addMember(t, m, 'admin');
    const owner = new ConsoleBrowser(t.baseUrl);
    await owner.signIn(m.email, m.password);
    const page = await owner.go('GET', '/console/members');
    const form = new RegExp(
      `action="/console/members/${next.memberId}/owner"[\\s\\S]*?name="_once" value="([^"]+)"`,
    ).exec(page.html);
    const handed = await owner.go('POST', `/console/members/${next.memberId}/owner`, {
      _csrf: await owner.csrf('/console/members'),
      _once: form![1],
    });
    expect(handed.status).toBe(303);
    const team = await t.app.get(QueryBus).execute(new AccountMembers(m.accountId));
    expect(team.members.filter((x) => x.role === 'owner').map((x) => x.email)).toEqual([next.email]);
    expect(team.members.find((x) => x.email === m.email)?.role).toBe('admin');
    const { AccountEmail } = await import('../../src/accounts/application/queries/account-email.query');
    expect(await t.app.get(QueryBus).execute(new AccountEmail(m.accountId))).toBe(next.email);
    // The previous owner's role changed, so their session ended; signing in again, they are an admin.
    await eventually(async () => ((await owner.go('GET', '/console')).status === 303 ? true : undefined));
    await owner.signIn(m.email, m.password);
    expect((await owner.go('GET', '/console/members')).html).not.toContain('/owner"');
  });
});
