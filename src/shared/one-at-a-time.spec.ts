import { OneAtATime } from './one-at-a-time';

describe('OneAtATime', () => {
  it('runs one key’s tasks in arrival order, never two at once, and other keys alongside', async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const answers = await Promise.all([
      queue.run('a', task('a1')),
      queue.run('a', task('a2')),
      queue.run('b', task('b1')),
    ]);
    expect(answers).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(most).toBe(2);
  });

  it('goes on after a failed task, and forgets idle keys', async () => {
    const queue = new OneAtATime();
    const failed = queue.run('a', async () => {
      throw new Error('no');
    });
    const next = queue.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('no');
    await expect(next).resolves.toBe('next');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.busyKeys).toBe(0);
  });
});
