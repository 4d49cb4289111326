import { AccountsService } from '../../accounts/application/accounts.service';
import { environmentOption, required } from '../cli-args';
import type { CliCommand } from './cli-command';

export const accountsCreate: CliCommand = {
  name: 'accounts:create',
  usage: 'accounts:create --email E --password P',
  async run(app, options) {
    const account = await app
      .get(AccountsService)
      .register(required(options, 'email'), required(options, 'password'));
    return { output: { id: account.id, email: account.email, wallets: account.wallets } };
  },
};

export const keysMint: CliCommand = {
  name: 'keys:mint',
  usage: 'keys:mint --email E --env test|live [--name N]',
  async run(app, options) {
    const accounts = app.get(AccountsService);
    const owner = await accounts.findByEmail(required(options, 'email'));
    if (!owner) throw new Error('No account with that email');
    const minted = await accounts.mintKey(owner.accountId, environmentOption(options), options.name ?? '');
    return { output: { id: minted.id, key: minted.key, environment: minted.environment, name: minted.name } };
  },
};

export const keysRevoke: CliCommand = {
  name: 'keys:revoke',
  usage: 'keys:revoke --id key_…',
  async run(app, options) {
    const id = required(options, 'id');
    await app.get(AccountsService).revokeKeyById(id);
    return { output: { id, revoked: true } };
  },
};
