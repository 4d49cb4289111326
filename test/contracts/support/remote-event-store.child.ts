/*
 * The "other process" of the contract suites (the operator CLI writing while the server runs).
 * Started by remote-event-store.ts as: node -r ts-node/register/transpile-only <this> '<json>'.
 * Prints {"ready":true}, waits for "go" on stdin, does its task, prints {"report":…}, exits.
 */
import type { EventStore } from '../../../src/shared/event-store/event-store.port';
import { RaceReport, raceAppends } from './race';
import type { AppendReport, RemoteStoreSpec, RemoteTask } from './remote-event-store';

async function main(): Promise<void> {
  const { spec, task } = JSON.parse(process.argv[2]) as { spec: RemoteStoreSpec; task: RemoteTask };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const adapter = require(spec.module) as Record<string, new (...args: unknown[]) => EventStore>;
  const store = new adapter[spec.exportName](...spec.args);
  await store.ping();
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const startAt = await waitForGo();
  if (startAt > Date.now()) await new Promise((resolve) => setTimeout(resolve, startAt - Date.now()));

  let report: RaceReport | AppendReport;
  if (task.kind === 'race') {
    report = await raceAppends(store, task.streamId, task.target, task.writer);
  } else {
    const positions: string[] = [];
    for (const event of task.events) {
      const result = await store.append(event.streamId, [{ type: event.type, data: event.data }], 'any');
      positions.push(result.position.toString());
    }
    report = { positions };
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ report })}\n`);
}

/** Waits for the line `go <epoch ms>` and returns the time to start at. */
function waitForGo(): Promise<number> {
  return new Promise((resolve) => {
    let input = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      input += chunk;
      const match = /go (\d+)\n/.exec(input);
      if (match) {
        process.stdin.pause();
        resolve(Number(match[1]));
      }
    });
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
