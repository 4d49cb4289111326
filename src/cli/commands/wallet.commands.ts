import type { INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '../../accounts/application/accounts.service';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { WalletBalances } from '../../wallet/application/wallet-balances.query';
import { WalletService } from '../../wallet/application/wallet.service';
import { smsLeft } from '../../wallet/domain/wallet.decider';
import { environmentOption, required } from '../cli-args';
import { positionDetail, stderrProgress } from '../progress';
import type { CliCommand } from './cli-command';

/** `--wallet wal_…`, or `--email E --env test|live`. */
async function walletIdFrom(app: INestApplicationContext, options: Record<string, string>): Promise<string> {
  if (options.wallet) return options.wallet;
  const accounts = app.get(AccountsService);
  const owner = await accounts.findByEmail(required(options, 'email'));
  const account = owner && (await accounts.get(owner.accountId));
  if (!account) throw new Error('No account with that email');
  return account.wallets[environmentOption(options)];
}

export const walletReplay: CliCommand = {
  name: 'wallet:replay',
  usage: 'wallet:replay --wallet wal_… | --email E --env test|live',
  async run(app, options) {
    const walletId = await walletIdFrom(app, options);
    const progress = stderrProgress('wallet:replay');
    const replayed = await app.get(WalletService).replay(walletId, (events) => progress.update(events));
    if (!replayed) throw new Error(`No wallet ${walletId}`);
    progress.done(replayed.events);
    await app.get(ProjectionsService).catchUp();
    const readModel = await app.get(WalletBalances).get(walletId);
    const left = smsLeft(replayed.wallet);
    const creditsIn = replayed.wallet.balance + replayed.wallet.captured;
    const consistent =
      readModel !== null &&
      readModel.smsLeft === left &&
      readModel.captured === replayed.wallet.captured &&
      readModel.reserved === replayed.wallet.reservedTotal &&
      creditsIn === left + replayed.wallet.captured + replayed.wallet.reservedTotal;
    return {
      output: {
        wallet: walletId,
        events: replayed.events,
        sms_left: left,
        read_model_sms_left: readModel?.smsLeft ?? null,
        credits_in: creditsIn,
        captured: replayed.wallet.captured,
        reserved: replayed.wallet.reservedTotal,
        open_reservations: replayed.wallet.reserved.size,
        consistent,
      },
      exitCode: consistent ? 0 : 1,
    };
  },
};

export const creditsGrant: CliCommand = {
  name: 'credits:grant',
  usage: 'credits:grant --wallet wal_… | --email E --env test|live --sms N --reason "…" [--id unique-id]',
  async run(app, options) {
    const walletId = await walletIdFrom(app, options);
    const sms = Number(required(options, 'sms'));
    const reason = required(options, 'reason');
    // An operator may pass --id to make a retried grant safe; otherwise each run is a new grant.
    const sourceId = options.id
      ? `grant:${options.id}`
      : `grant:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    const result = await app
      .get(WalletService)
      .addCredits(walletId, { sourceId, source: 'operator_grant', sms, reason });
    if (!result.ok) throw result.error;
    return {
      output: {
        wallet: walletId,
        granted: sms,
        reason,
        source_id: sourceId,
        sms_left: smsLeft(result.value.wallet),
      },
    };
  },
};

export const projectionsRebuild: CliCommand = {
  name: 'projections:rebuild',
  usage: 'projections:rebuild',
  async run(app) {
    const started = Date.now();
    const projections = app.get(ProjectionsService);
    const progress = stderrProgress('projections:rebuild', 'events applied');
    let applied = 0;
    await projections.rebuild((p) => {
      applied = p.applied;
      progress.update(p.applied, positionDetail(p.position, p.head));
    });
    progress.done(applied);
    return {
      output: {
        rebuilt: projections
          .projections()
          .filter((p) => p.kind !== 'process-manager')
          .map((p) => p.name),
        ms: Date.now() - started,
      },
    };
  },
};
