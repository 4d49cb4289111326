import {
  ConcurrencyError,
  EventStore,
  ExpectedRevision,
} from '../../../src/shared/event-store/event-store.port';

export interface RaceReport {
  /** The expected revisions this writer appended at (each one event: revision expected + 1). */
  readonly wins: string[];
  readonly conflicts: { streamId: string; expected: string; actual: string; name: string }[];
  readonly otherErrors: string[];
}

/**
 * Appends one event at a time at the revision this writer believes is current until the stream
 * holds `target` events. On a conflict it believes the error's `actual` revision, so racing
 * writers keep colliding on the head with the same expected revision: the hot-stream case.
 */
export async function raceAppends(
  store: EventStore,
  streamId: string,
  target: number,
  writer: string,
): Promise<RaceReport> {
  const report: RaceReport = { wins: [], conflicts: [], otherErrors: [] };
  let known: bigint | 'no_stream' = 'no_stream';
  const last = BigInt(target - 1);
  while (known === 'no_stream' || known < last) {
    const expected: ExpectedRevision = known;
    try {
      await store.append(
        streamId,
        [{ type: 'Raced', data: { writer, expected: String(expected) } }],
        expected,
      );
      report.wins.push(String(expected));
      known = expected === 'no_stream' ? 0n : expected + 1n;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) {
        report.otherErrors.push(String((error as Error)?.stack ?? error));
        if (report.otherErrors.length > 10) break;
        continue;
      }
      report.conflicts.push({
        streamId: error.streamId,
        expected: String(error.expected),
        actual: String(error.actual),
        name: error.name,
      });
      if (error.actual === 'no_stream' || (known !== 'no_stream' && error.actual <= known)) {
        // The store says the stream did not move past what we believed: a broken error.
        report.otherErrors.push(
          `conflict without progress: expected ${String(expected)}, actual ${String(error.actual)}`,
        );
        break;
      }
      known = error.actual;
    }
    // Let the other writers in between attempts, as a server's event loop would.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report;
}
