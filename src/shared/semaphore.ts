/**
 * At most `permits` tasks at once; the others wait their turn in arrival order. For work that
 * must not take over a shared resource however many requests ask for it at once.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly permits: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.permits) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      // The permit passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Tasks waiting for a permit. */
  get queued(): number {
    return this.waiting.length;
  }
}
