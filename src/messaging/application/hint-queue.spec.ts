import { HintQueue } from './hint-queue';

const drain = (queue: HintQueue<number>) => {
  const taken: [string, number][] = [];
  for (let next = queue.take(); next; next = queue.take()) taken.push(next);
  return taken;
};

describe('HintQueue', () => {
  it('gives the ids back in the order they were first hinted, each once, with their latest value', () => {
    const queue = new HintQueue<number>();
    queue.set('a', 1);
    queue.set('b', 2);
    queue.set('a', 3);
    expect(queue.size).toBe(2);
    expect(drain(queue)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    expect(queue.size).toBe(0);
  });

  it('skips a deleted id, and takes one hinted again after its deletion once', () => {
    const queue = new HintQueue<number>();
    queue.set('a', 1);
    queue.set('b', 2);
    queue.delete('a');
    queue.delete('b');
    queue.set('b', 4);
    expect(queue.has('a')).toBe(false);
    expect(drain(queue)).toEqual([['b', 4]]);
    queue.set('a', 5);
    expect(drain(queue)).toEqual([['a', 5]]);
  });

  it('keeps its order through many takes and hints (the taken part is dropped as it grows)', () => {
    const queue = new HintQueue<number>();
    const expected: [string, number][] = [];
    let taken: [string, number][] = [];
    for (let i = 0; i < 10_000; i++) {
      queue.set(`m${i}`, i);
      expected.push([`m${i}`, i]);
      if (i % 3 === 0) taken.push(queue.take() as [string, number]);
    }
    taken = taken.concat(drain(queue));
    expect(taken).toEqual(expected);
  });

  it('forgets everything on clear', () => {
    const queue = new HintQueue<number>();
    queue.set('a', 1);
    queue.clear();
    expect(queue.take()).toBeUndefined();
    queue.set('b', 2);
    expect(drain(queue)).toEqual([['b', 2]]);
  });
});
