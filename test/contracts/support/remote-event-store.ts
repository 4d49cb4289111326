import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/**
 * How another OS process opens the same store as the test: a module exporting a class that
 * is constructed with `args` (a file path, a URL). The child runs remote-event-store.child.ts.
 */
export interface RemoteStoreSpec {
  readonly module: string;
  readonly exportName: string;
  readonly args: readonly unknown[];
}

export type RemoteTask =
  | {
      /** raceAppends() on this stream until it holds `target` events, racing the test. */
      readonly kind: 'race';
      readonly streamId: string;
      readonly target: number;
      readonly writer: string;
    }
  | {
      /** Append these events, one append each. */
      readonly kind: 'append';
      readonly events: readonly { streamId: string; type: string; data: unknown }[];
    };

export interface AppendReport {
  readonly positions: string[];
}

const repoRoot = resolve(__dirname, '../../..');
const childScript = join(__dirname, 'remote-event-store.child.ts');

export interface RemoteProcess<Report> {
  /** Resolves once the child has opened the store and waits for go(). */
  readonly ready: Promise<void>;
  /** Lets the child start, at `startAt` (epoch ms) when given, so two processes start together. */
  go(startAt?: number): void;
  /** The child's report, once it exited cleanly. */
  readonly done: Promise<Report>;
  kill(): void;
}

/** Starts the child under ts-node (transpile only): a real second process on the same store. */
export function startRemote<Report>(spec: RemoteStoreSpec, task: RemoteTask): RemoteProcess<Report> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', childScript, JSON.stringify({ spec, task })],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
    },
  );
  let stdout = '';
  let stderr = '';
  let onReady!: () => void;
  let onReadyFailed!: (error: Error) => void;
  const ready = new Promise<void>((resolveReady, rejectReady) => {
    onReady = resolveReady;
    onReadyFailed = rejectReady;
  });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('"ready":true')) onReady();
  });
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Report>((resolveDone, rejectDone) => {
    child.on('error', (error) => {
      onReadyFailed(error);
      rejectDone(error);
    });
    child.on('close', (code) => {
      const failure = new Error(
        `remote store process exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`,
      );
      onReadyFailed(failure);
      if (code !== 0) return rejectDone(failure);
      const line = stdout.split('\n').find((l) => l.startsWith('{"report":'));
      if (!line) return rejectDone(failure);
      resolveDone((JSON.parse(line) as { report: Report }).report);
    });
  });
  // Whoever awaits only `done` must not see an unhandled rejection of `ready`.
  ready.catch(() => undefined);
  return {
    ready,
    go: (startAt) => child.stdin.write(`go ${startAt ?? 0}\n`),
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
