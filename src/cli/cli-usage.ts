import type { CliCommand } from './commands/cli-command';

/** What `npm run cli` prints for help, or after saying what was wrong: every command, every option. */
export function usage(commands: readonly CliCommand[]): string {
  return [
    'Usage: npm run cli -- <command> [--option value]…',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage}`),
    '',
    'Each prints one JSON line on stdout. See docs/operations.md, "Operator CLI".',
    '',
  ].join('\n');
}

/** The options given that the command does not take (`--pasword` for `--password`). */
export function undeclaredOptions(command: CliCommand, options: Record<string, string>): string[] {
  return Object.keys(options).filter((name) => !command.options.includes(name));
}

/**
 * The options as the command sees them: reading one its `options` do not name throws, so a
 * command cannot take a flag its usage (and the refusal of unknown flags) does not know about.
 */
export function declaredOptions(
  command: CliCommand,
  options: Record<string, string>,
): Record<string, string> {
  return new Proxy(options, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !command.options.includes(name))
        throw new Error(
          `${command.name} reads --${name}, which its options do not declare (src/cli/commands)`,
        );
      return Reflect.get(target, name, receiver);
    },
  });
}
