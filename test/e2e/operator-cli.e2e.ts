import { runCliProcess } from '../support/cli';
import { eventually, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(240_000); // each CLI run boots the app in a fresh process: slow on a busy machine

describe('operator CLI, run as its own process beside the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates an account, mints a key the running server accepts within a second, grants credits, replays and revokes', async () => {
    const created = await runCliProcess(t.dataDir, [
      'accounts:create',
      '--email',
      'ops@example.com',
      '--password',
      'a long passphrase',
    ]);
    expect(created.output).toMatchObject({ id: expect.stringMatching(/^acct_/), email: 'ops@example.com' });

    const minted = await runCliProcess(t.dataDir, [
      'keys:mint',
      '--email',
      'ops@example.com',
      '--env',
      'test',
      '--name',
      'ops',
    ]);
    expect(minted.output).toMatchObject({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^sms_test_/),
      environment: 'TEST',
    });
    const key = minted.output.key as string;
    const mintedAt = Date.now();
    await eventually(
      async () => ((await t.request('GET', '/v1/billing', { key })).status === 200 ? true : undefined),
      10_000,
      'the key to work',
    );
    expect(Date.now() - mintedAt).toBeLessThan(5_000); // "within a second", with room for a busy CI machine

    const granted = await runCliProcess(t.dataDir, [
      'credits:grant',
      '--email',
      'ops@example.com',
      '--env',
      'test',
      '--sms',
      '25',
      '--reason',
      'goodwill after outage',
    ]);
    expect(granted.output).toMatchObject({ granted: 25, sms_left: 125 });
    await eventually(async () =>
      (await t.request('GET', '/v1/billing', { key })).body.sms_left === 125 ? true : undefined,
    );
    const history = await t.request('GET', '/v1/wallet/events', { key });
    expect(history.body.data.at(-1)).toMatchObject({
      type: 'CreditsAdded',
      data: { source: 'operator_grant', reason: 'goodwill after outage', sms: 25 },
    });

    const replay = await runCliProcess(t.dataDir, [
      'wallet:replay',
      '--email',
      'ops@example.com',
      '--env',
      'test',
    ]);
    expect(replay.code).toBe(0);
    expect(replay.output).toMatchObject({
      events: 3,
      sms_left: 125,
      read_model_sms_left: 125,
      consistent: true,
    });

    const revoked = await runCliProcess(t.dataDir, ['keys:revoke', '--id', minted.output.id as string]);
    expect(revoked.output).toEqual({ id: minted.output.id, revoked: true });
    await eventually(
      async () => ((await t.request('GET', '/v1/billing', { key })).status === 401 ? true : undefined),
      10_000,
      'the key to stop working',
    );

    const rebuilt = await runCliProcess(t.dataDir, ['projections:rebuild']);
    expect(rebuilt.output).toMatchObject({
      rebuilt: expect.arrayContaining(['wallet-balances', 'accounts']),
    });
  });

  it('fails with a JSON error line and exit 1 on bad input', async () => {
    const bad = await runCliProcess(t.dataDir, [
      'credits:grant',
      '--wallet',
      'wal_nope',
      '--sms',
      '5',
      '--reason',
      'x',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.output).toHaveProperty('error');
  });
});
