/**
 * Tasks run one at a time per key, in arrival order, in this process (other keys run alongside):
 * for a check-then-act on one thing (a checkout, an account's requests) that must not interleave
 * with itself. A task's failure does not stop the next one. Keys are forgotten once idle.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return current;
  }

  /** Keys with a task running or waiting. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
