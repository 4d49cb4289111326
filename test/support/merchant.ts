import { AccountsService } from '../../src/accounts/application/accounts.service';
import { randomToken } from '../../src/shared/ids';
import type { TestApp } from './test-app';

export interface Merchant {
  readonly accountId: string;
  readonly email: string;
  readonly password: string;
  readonly wallets: { readonly TEST: string; readonly LIVE: string };
  readonly testKey: string;
  readonly liveKey: string;
}

/** Signs a merchant up through the same service the console uses, with one key per environment. */
export async function createMerchant(
  t: TestApp,
  email = `m-${randomToken(8)}@example.com`,
): Promise<Merchant> {
  const accounts = t.app.get(AccountsService);
  const password = 'correct horse battery';
  const account = await accounts.register(email, password);
  const testKey = await accounts.mintKey(account.id, 'TEST', 'test');
  const liveKey = await accounts.mintKey(account.id, 'LIVE', 'live');
  return {
    accountId: account.id,
    email: account.email,
    password,
    wallets: account.wallets,
    testKey: testKey.key,
    liveKey: liveKey.key,
  };
}
