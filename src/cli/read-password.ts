/** What the CLI reads a password from: the process's stdin and stderr, or stand-ins in tests. */
export interface Terminal {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  readonly prompt: NodeJS.WritableStream;
}

const processTerminal = (): Terminal => ({ input: process.stdin, prompt: process.stderr });

/**
 * A password for a command that was not given `--password` (which would stay in the shell's
 * history): typed at a prompt without echo when stdin is a terminal, else the first line of
 * stdin (`… accounts:create --email E < password.txt`, or piped from a secret store).
 */
export function readPassword(terminal: Terminal = processTerminal()): Promise<string> {
  return terminal.input.isTTY && terminal.input.setRawMode ? fromPrompt(terminal) : firstLine(terminal.input);
}

function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      input.off('data', onData);
      input.off('end', done);
      input.off('error', reject);
      input.pause();
      resolve(text.split(/\r?\n/)[0]);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (/\r?\n/.test(text)) done();
    };
    input.on('data', onData);
    input.once('end', done);
    input.once('error', reject);
  });
}

function fromPrompt({ input, prompt }: Terminal): Promise<string> {
  return new Promise((resolve, reject) => {
    prompt.write('Password: ');
    input.setRawMode!(true);
    let typed = '';
    const finish = (error: Error | null) => {
      input.off('data', onData);
      input.setRawMode!(false);
      input.pause();
      prompt.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003') return finish(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
