import type { INestApplicationContext } from '@nestjs/common';

/** One operator command: runs against the same stores as the server and answers one JSON object. */
export interface CliCommand {
  readonly name: string;
  /** The command and every option it takes, as the usage prints it. */
  readonly usage: string;
  /**
   * The `--options` it takes (names without the dashes). Any other is refused before it runs,
   * and reading an undeclared one is a programming error (cli-usage.ts, declaredOptions).
   */
  readonly options: readonly string[];
  run(
    app: INestApplicationContext,
    options: Record<string, string>,
  ): Promise<{ output: object; exitCode?: number }>;
}
