// First: on a Node too old for a dependency, a clear sentence instead of ERR_REQUIRE_ESM.
import '../config/require-supported-node';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { DomainError } from '../shared/domain-error';
import { parseArgs } from './cli-args';
import { accountsCreate, keysMint, keysRevoke } from './commands/account.commands';
import type { CliCommand } from './commands/cli-command';
import {
  inboundUnassigned,
  numbersAssign,
  numbersList,
  senderIdsApprove,
  senderIdsList,
  senderIdsReject,
} from './commands/compliance.commands';
import { mailOutbox } from './commands/mail.commands';
import { routesAdd, routesList } from './commands/route.commands';
import { sessionsEndAll } from './commands/session.commands';
import { creditsGrant, projectionsRebuild, walletReplay } from './commands/wallet.commands';

export const COMMANDS: readonly CliCommand[] = [
  accountsCreate,
  keysMint,
  keysRevoke,
  walletReplay,
  creditsGrant,
  projectionsRebuild,
  routesAdd,
  routesList,
  sessionsEndAll,
  senderIdsList,
  senderIdsApprove,
  senderIdsReject,
  numbersAssign,
  numbersList,
  inboundUnassigned,
  mailOutbox,
];

/**
 * `npm run cli -- <command> [--option value]…`: works on the same stores as the server, also
 * while it runs, and prints one JSON line. Read models are caught up here; process managers
 * (dispatching, payments) are left to the server.
 */
export async function runCli(
  argv: readonly string[],
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const { command: name, options } = parseArgs(argv);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(
      `Usage: npm run cli -- <command>\n${commands.map((c) => `  ${c.usage}`).join('\n')}\n`,
    );
    return 2;
  }
  process.env.RUN_PROCESS_MANAGERS = 'false';
  // A command is a short visit: no threads beside it (its stores checkpoint as they commit).
  process.env.BACKGROUND_THREADS = 'off';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  try {
    await app.init();
    const { output, exitCode } = await command.run(app, options);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return exitCode ?? 0;
  } catch (error) {
    const message =
      error instanceof DomainError ? `${error.code}: ${error.message}` : (error as Error).message;
    process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    return 1;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
