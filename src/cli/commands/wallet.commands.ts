import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RebuildProjections } from '../../shared/projections/rebuild-projections.command';
import { GrantCredits } from '../../wallet/application/commands/grant-credits.command';
import { WalletReplay } from '../../wallet/application/queries/wallet-replay.query';
import { environmentOption, required } from '../cli-args';
import { positionDetail, stderrProgress } from '../progress';
import { accountByEmail } from './account.commands';
import type { CliCommand } from './cli-command';

/** `--wallet wal_…`, or `--email E --env test|live`. */
async function walletIdFrom(app: INestApplicationContext, options: Record<string, string>): Promise<string> {
  if (options.wallet) return options.wallet;
  const account = await accountByEmail(app, required(options, 'email'));
  return account.wallets[environmentOption(options)];
}

export const walletReplay: CliCommand = {
  name: 'wallet:replay',
  usage: 'wallet:replay --wallet wal_… | --email E --env test|live',
  options: ['wallet', 'email', 'env'],
  async run(app, options) {
    const walletId = await walletIdFrom(app, options);
    const progress = stderrProgress('wallet:replay');
    const report = await app
      .get(QueryBus)
      .execute(new WalletReplay(walletId, (events) => progress.update(events)));
    if (!report) throw new Error(`No wallet ${walletId}`);
    progress.done(report.events);
    return { output: report, exitCode: report.consistent ? 0 : 1 };
  },
};

export const creditsGrant: CliCommand = {
  name: 'credits:grant',
  usage: 'credits:grant --wallet wal_… | --email E --env test|live --sms N --reason "…" [--id unique-id]',
  options: ['wallet', 'email', 'env', 'sms', 'reason', 'id'],
  async run(app, options) {
    const walletId = await walletIdFrom(app, options);
    const sms = Number(required(options, 'sms'));
    const reason = required(options, 'reason');
    // An operator may pass --id to make a retried grant safe; otherwise each run is a new grant.
    const granted = await app
      .get(CommandBus)
      .execute(new GrantCredits(walletId, sms, reason, options.id ?? null));
    return { output: granted };
  },
};

export const projectionsRebuild: CliCommand = {
  name: 'projections:rebuild',
  usage: 'projections:rebuild',
  options: [],
  async run(app) {
    const progress = stderrProgress('projections:rebuild', 'events applied');
    let applied = 0;
    const rebuilt = await app.get(CommandBus).execute(
      new RebuildProjections((p) => {
        applied = p.applied;
        progress.update(p.applied, positionDetail(p.position, p.head));
      }),
    );
    progress.done(applied);
    return { output: rebuilt };
  },
};
