// First: on a Node too old for a dependency, a clear sentence instead of ERR_REQUIRE_ESM.
import '../config/require-supported-node';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { DomainError } from '../shared/domain-error';
import { parseArgs } from './cli-args';
import { writeAll } from './write-all';
import { declaredOptions, undeclaredOptions, usage } from './cli-usage';
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
  const [name] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage(commands));
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const problem = name === undefined ? 'No command given.' : `Unknown command "${name}".`;
    return refuse(problem, usage(commands));
  }
  let options: Record<string, string>;
  try {
    options = parseArgs(argv).options;
  } catch (error) {
    return refuse(`${(error as Error).message}.`, `Usage: npm run cli -- ${command.usage}\n`);
  }
  const unknown = undeclaredOptions(command, options);
  if (unknown.length > 0) {
    const list = unknown.map((o) => `--${o}`).join(', ');
    return refuse(`${command.name} does not take ${list}.`, `Usage: npm run cli -- ${command.usage}\n`);
  }
  process.env.RUN_PROCESS_MANAGERS = 'false';
  // A command is a short visit: no threads beside it (its stores checkpoint as they commit).
  process.env.BACKGROUND_THREADS = 'off';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  let printed: Promise<void> = Promise.resolve();
  try {
    await app.init();
    const { output, exitCode } = await command.run(app, declaredOptions(command, options));
    printed = writeAll(process.stdout, `${JSON.stringify(output)}\n`);
    return exitCode ?? 0;
  } catch (error) {
    const message =
      error instanceof DomainError ? `${error.code}: ${error.message}` : (error as Error).message;
    printed = writeAll(process.stdout, `${JSON.stringify({ error: message })}\n`);
    return 1;
  } finally {
    await app.close();
    await printed;
  }
}

/**
 * A command line that names no command, or one it does not take: what is wrong first, then the
 * usage, on stderr; stdout keeps its one JSON line; exit code 2.
 */
function refuse(problem: string, help: string): number {
  process.stderr.write(`${problem}\n\n${help}`);
  process.stdout.write(`${JSON.stringify({ error: problem })}\n`);
  return 2;
}

if (require.main === module) {
  void runCli(process.argv.slice(2)).then((code) => process.exit(code));
}
