import { CommandBus } from '@nestjs/cqrs';
import { MintApiKey } from '../../src/accounts/application/commands/mint-api-key.command';
import { RegisterAccount } from '../../src/accounts/application/commands/register-account.command';
import { DecideSenderId } from '../../src/compliance/application/commands/decide-sender-id.command';
import { RequestSenderId } from '../../src/compliance/application/commands/request-sender-id.command';
import { randomToken } from '../../src/shared/ids';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { smsLeft } from './messaging';
import { eventually, type TestApp } from './test-app';

export interface Merchant {
  readonly accountId: string;
  readonly email: string;
  readonly password: string;
  readonly wallets: { readonly TEST: string; readonly LIVE: string };
  readonly testKey: string;
  readonly liveKey: string;
}

/**
 * Signs a merchant up through the same use cases the console uses, with one key per environment.
 * Its sender IDs `approvedSenderIds` (by default the suite's MyShop) are requested and approved
 * by the operator, as a merchant sending LIVE has them; pass [] for a merchant with none.
 */
export async function createMerchant(
  t: TestApp,
  email = `m-${randomToken(8)}@example.com`,
  options: { approvedSenderIds?: readonly string[] } = {},
): Promise<Merchant> {
  const commands = t.app.get(CommandBus);
  const password = 'correct horse battery';
  const account = await commands.execute(new RegisterAccount(email, password));
  const testKey = await commands.execute(new MintApiKey(account.id, 'TEST', 'test'));
  const liveKey = await commands.execute(new MintApiKey(account.id, 'LIVE', 'live'));
  for (const senderId of options.approvedSenderIds ?? ['MyShop']) {
    await commands.execute(new RequestSenderId(account.id, senderId, 'A sample message'));
    await commands.execute(new DecideSenderId(account.email, senderId, { verdict: 'approve' }));
  }
  return {
    accountId: account.id,
    email: account.email,
    password,
    wallets: account.wallets,
    testKey: testKey.key,
    liveKey: liveKey.key,
  };
}

/** A merchant (as createMerchant) whose LIVE wallet an operator granted `credits`, readable as sms_left. */
export async function createLiveMerchant(
  t: TestApp,
  options: { approvedSenderIds?: readonly string[]; credits?: number } = {},
): Promise<Merchant> {
  const m = await createMerchant(t, undefined, options);
  const credits = options.credits ?? 10;
  const granted = await t.app.get(WalletService).addCredits(m.wallets.LIVE, {
    sourceId: `grant-${randomToken(8)}`,
    source: 'operator_grant',
    sms: credits,
    reason: 'e2e LIVE credits',
  });
  if (!granted.ok) throw new Error(`LIVE credits not granted: ${granted.error.code}`);
  await eventually(
    async () => ((await smsLeft(t, m.liveKey)) === credits ? true : undefined),
    60_000,
    `LIVE sms_left to be ${credits}`,
  );
  return m;
}
