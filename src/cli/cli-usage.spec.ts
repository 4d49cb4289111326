import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declaredOptions, undeclaredOptions, usage } from './cli-usage';
import type { CliCommand } from './commands/cli-command';
import { COMMANDS, runCli } from './main';

const ROOT = join(__dirname, '..', '..');
/** The `--flags` a text names. */
const flagsIn = (text: string) => [...text.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);

/** Runs the CLI on a command line it refuses before opening any store, and keeps what it wrote. */
async function refusedRun(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += chunk), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += chunk), true));
  try {
    return { code: await runCli(argv), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('the CLI usage, from the command table itself', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s: its usage line names exactly the options it takes',
    (name, command) => {
      expect(command.usage.startsWith(`${name}`)).toBe(true);
      expect([...new Set(flagsIn(command.usage))].sort()).toEqual([...command.options].sort());
    },
  );

  it('lists every command, --password among the options', () => {
    const text = usage(COMMANDS);
    for (const command of COMMANDS) expect(text).toContain(`\n  ${command.usage}\n`);
    expect(text).toContain('accounts:create --email E [--password P]');
  });

  it('says an unknown command is unknown before the usage; exit 2, one JSON line on stdout', async () => {
    const run = await refusedRun(['acounts:create', '--email', 'a@example.com']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`Unknown command "acounts:create".\n\n${usage(COMMANDS)}`);
    expect(JSON.parse(run.stdout)).toEqual({ error: 'Unknown command "acounts:create".' });
  });

  it('says when no command is given, and prints the usage on stdout for help', async () => {
    const none = await refusedRun([]);
    expect(none.code).toBe(2);
    expect(none.stderr.startsWith('No command given.\n\nUsage: npm run cli -- <command>')).toBe(true);
    for (const help of ['help', '--help', '-h']) {
      const run = await refusedRun([help]);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 0,
        stdout: usage(COMMANDS),
        stderr: '',
      });
    }
  });

  it('refuses an option the command does not take (a typo would otherwise be ignored), with its usage', async () => {
    const run = await refusedRun(['accounts:create', '--email', 'a@example.com', '--pasword', 'secret']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'accounts:create does not take --pasword.\n\nUsage: npm run cli -- accounts:create --email E [--password P]   (without --password: prompted for, or read from stdin)\n',
    );
    expect(JSON.parse(run.stdout)).toEqual({ error: 'accounts:create does not take --pasword.' });
    const stray = await refusedRun(['routes:list', 'extra']);
    expect({ code: stray.code, out: JSON.parse(stray.stdout) }).toEqual({
      code: 2,
      out: { error: 'Unexpected argument "extra".' },
    });
  });

  it('lets a command read only the options it declares', () => {
    const command: CliCommand = {
      name: 'x:y',
      usage: 'x:y --a A',
      options: ['a'],
      run: async () => ({ output: {} }),
    };
    expect(undeclaredOptions(command, { a: '1', b: '2' })).toEqual(['b']);
    const options = declaredOptions(command, { a: '1' });
    expect(options.a).toBe('1');
    expect(() => options.b).toThrow('x:y reads --b, which its options do not declare');
  });
});

describe('the documentation lists every command', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const operatorCli = readme.slice(readme.indexOf('## Operator CLI'), readme.indexOf('## Other commands'));
  const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s: in the README, and in operations.md with every option',
    (name, command) => {
      expect(operatorCli).toContain(`\`${name}\``);
      const row = operations.split('\n').find((line) => line.startsWith(`| \`${name}`));
      expect(row).toBeDefined();
      for (const option of command.options) expect(flagsIn(row!.split(' | ')[0])).toContain(option);
    },
  );
});
