/** `--name value` pairs after the command; a flag without a value is "true". */
export function parseArgs(argv: readonly string[]): {
  command: string | undefined;
  options: Record<string, string>;
} {
  const [command, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const name = arg.slice(2);
    const next = rest[i + 1];
    if (next === undefined || next.startsWith('--')) options[name] = 'true';
    else {
      options[name] = next;
      i++;
    }
  }
  return { command, options };
}

export function required(options: Record<string, string>, name: string): string {
  const value = options[name];
  if (!value || value === 'true') throw new Error(`--${name} is required`);
  return value;
}

export function environmentOption(options: Record<string, string>): 'TEST' | 'LIVE' {
  const env = required(options, 'env').toLowerCase();
  if (env !== 'test' && env !== 'live') throw new Error('--env must be test or live');
  return env === 'test' ? 'TEST' : 'LIVE';
}
