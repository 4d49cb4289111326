import { Semaphore } from './semaphore';

describe('Semaphore', () => {
  it('runs at most `permits` tasks at once, in arrival order, and passes on failures', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      if (i === 3) throw new Error('task 3 failed');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => semaphore.run(task(i))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results[3].status).toBe('rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    expect(semaphore.queued).toBe(0);
    // The permits all came back.
    await Promise.all([semaphore.run(task(10)), semaphore.run(task(11))]);
    expect(running).toBe(0);
  });
});
