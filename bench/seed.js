'use strict';
/**
 * Creates the benchmark's merchants in one process, against DATA_DIR, before the server
 * starts: `wallets` accounts, one TEST key each and plenty of credits on every TEST wallet so
 * sends never meet a 402. Boots the compiled application context once (what the operator CLI
 * does per command) with process managers off. Prints one JSON line:
 * { keys: [...], wallets: [...], ms }.
 */
require('reflect-metadata');
process.env.RUN_PROCESS_MANAGERS = 'false';
process.env.BACKGROUND_THREADS = 'off';
const { join } = require('node:path');
const { NestFactory } = require('@nestjs/core');
const { CommandBus } = require('@nestjs/cqrs');

const dist = join(__dirname, '..', 'dist');
const { AppModule } = require(join(dist, 'app.module'));
const { RegisterAccount } = require(join(dist, 'accounts/application/commands/register-account.command'));
const { MintApiKey } = require(join(dist, 'accounts/application/commands/mint-api-key.command'));
const { GrantCredits } = require(join(dist, 'wallet/application/commands/grant-credits.command'));
const { ProjectionsService } = require(join(dist, 'shared/projections/projections.service'));

async function main() {
  const count = Number(process.argv[2] ?? 100);
  const credits = Number(process.argv[3] ?? 1_000_000);
  const started = Date.now();
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  await app.init();
  try {
    const commands = app.get(CommandBus);
    const keys = [];
    const walletIds = [];
    const run = Date.now().toString(36);
    // A few at a time: registration hashes a password (scrypt), the rest is store work.
    for (let i = 0; i < count; i += 10) {
      const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) => i + j);
      const made = await Promise.all(
        batch.map(async (n) => {
          const account = await commands.execute(
            new RegisterAccount(`bench-${run}-${n}@example.com`, 'bench-password-123'),
          );
          const key = await commands.execute(new MintApiKey(account.id, 'TEST', `bench ${n}`));
          const walletId = account.wallets.TEST;
          await commands.execute(new GrantCredits(walletId, credits, 'benchmark', `bench-${run}-${n}`));
          return { key: key.key, walletId };
        }),
      );
      for (const m of made) {
        keys.push(m.key);
        walletIds.push(m.walletId);
      }
    }
    await app.get(ProjectionsService).catchUp();
    process.stdout.write(`${JSON.stringify({ keys, wallets: walletIds, ms: Date.now() - started })}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
