import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { INestApplicationContext } from '@nestjs/common';
import { MintApiKey } from '../../accounts/application/commands/mint-api-key.command';
import { RegisterAccount } from '../../accounts/application/commands/register-account.command';
import { RevokeApiKey } from '../../accounts/application/commands/revoke-api-key.command';
import { AccountByEmail } from '../../accounts/application/queries/account-by-email.query';
import type { AccountView } from '../../accounts/projections/accounts.projection';
import { environmentOption, required } from '../cli-args';
import { readPassword } from '../read-password';
import type { CliCommand } from './cli-command';

/** The account behind `--email`, or a clear refusal. */
export async function accountByEmail(app: INestApplicationContext, email: string): Promise<AccountView> {
  const account = await app.get(QueryBus).execute(new AccountByEmail(email));
  if (!account) throw new Error('No account with that email');
  return account;
}

export const accountsCreate: CliCommand = {
  name: 'accounts:create',
  usage: 'accounts:create --email E [--password P]   (without --password: prompted for, or read from stdin)',
  options: ['email', 'password'],
  async run(app, options) {
    const email = required(options, 'email');
    // --password still works for scripts, but it stays in the shell's history and `ps`.
    const password = options.password ?? (await readPassword());
    const account = await app.get(CommandBus).execute(new RegisterAccount(email, password));
    return { output: { id: account.id, email: account.email, wallets: account.wallets } };
  },
};

export const keysMint: CliCommand = {
  name: 'keys:mint',
  usage:
    'keys:mint --email E --env test|live [--name N] [--scope full|send|read] [--allowed-ips "203.0.113.7,198.51.100.0/24"]',
  options: ['email', 'env', 'name', 'scope', 'allowed-ips'],
  async run(app, options) {
    const account = await accountByEmail(app, required(options, 'email'));
    const minted = await app.get(CommandBus).execute(
      new MintApiKey(account.id, environmentOption(options), options.name ?? '', {
        scope: options.scope,
        allowedIps: options['allowed-ips'],
      }),
    );
    return {
      output: {
        id: minted.id,
        key: minted.key,
        environment: minted.environment,
        name: minted.name,
        scope: minted.scope,
        allowed_ips: minted.allowed_ips,
      },
    };
  },
};

export const keysRevoke: CliCommand = {
  name: 'keys:revoke',
  usage: 'keys:revoke --id key_…',
  options: ['id'],
  async run(app, options) {
    const revoked = await app.get(CommandBus).execute(new RevokeApiKey(required(options, 'id'), null));
    return { output: { id: revoked.id, revoked: true } };
  },
};
