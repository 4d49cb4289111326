import { Logger } from '@nestjs/common';
import { ReadModelChanges } from './projections/read-model-changes';
import { QueuedWorkLoop } from './queued-work-loop';
import { ListQuery, ReadStore } from './read-store/read-store.port';

/** A read store that lists the given ids, and records what it was asked. */
function listing(ids: string[]): { reads: ReadStore; asked: Array<{ collection: string; query: ListQuery }> } {
  const asked: Array<{ collection: string; query: ListQuery }> = [];
  const reads = {
    list: async (collection: string, query: ListQuery) => {
      asked.push({ collection, query });
      return ids.map((id) => ({ id }));
    },
  } as unknown as ReadStore;
  return { reads, asked };
}

function quietLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return Object.assign(new Logger('test'), { warnings, warn: (m: string) => void warnings.push(m) });
}

describe('QueuedWorkLoop', () => {
  // The loop's own timer never fires within a test: each test calls tick() itself.
  const work = { noun: 'job', collection: 'job-queue', partition: 'waiting', pollMs: 60_000, restMs: 60_000 };

  it('rests (null) when the read model lists nothing, asking its partition oldest first', async () => {
    const { reads, asked } = listing([]);
    const loop = new QueuedWorkLoop({ ...work, run: async () => undefined }, reads, new ReadModelChanges(), quietLogger());
    loop.start();
    await expect(loop.tick()).resolves.toBeNull();
    await loop.stop();
    expect(asked[0]).toEqual({ collection: 'job-queue', query: { partition: 'waiting', order: 'asc', limit: 20 } });
  });

  it('runs every item listed in order, and one that fails is logged without holding up the next', async () => {
    const { reads } = listing(['a', 'b', 'c']);
    const ran: string[] = [];
    const logger = quietLogger();
    const run = async (id: string) => {
      ran.push(id);
      if (id === 'b') throw new Error('store unavailable');
    };
    const loop = new QueuedWorkLoop({ ...work, run }, reads, new ReadModelChanges(), logger);
    loop.start();
    await expect(loop.tick()).resolves.toBeUndefined(); // items listed: look again after the interval
    await loop.stop();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(logger.warnings).toContain('job b stopped, to be resumed: store unavailable');
  });

  it('stops between items, and tells a running item it is stopping', async () => {
    const { reads } = listing(['a', 'b']);
    const seen: Array<[string, boolean]> = [];
    const stopping: Array<Promise<void>> = [];
    const run = async (id: string, stopped: () => boolean) => {
      stopping.push(loop.stop());
      seen.push([id, stopped()]);
    };
    const loop = new QueuedWorkLoop({ ...work, run }, reads, new ReadModelChanges(), quietLogger());
    loop.start();
    await loop.tick();
    await Promise.all(stopping);
    expect(seen).toEqual([['a', true]]);
    expect(loop.isStopped()).toBe(true);
  });
});
