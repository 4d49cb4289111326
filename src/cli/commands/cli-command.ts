import type { INestApplicationContext } from '@nestjs/common';

/** One operator command: runs against the same stores as the server and answers one JSON object. */
export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  run(
    app: INestApplicationContext,
    options: Record<string, string>,
  ): Promise<{ output: object; exitCode?: number }>;
}
