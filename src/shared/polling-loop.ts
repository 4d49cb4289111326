/**
 * Runs `tick` every `intervalMs`, one at a time (the next wait starts when a tick ends), until
 * stopped; a failed tick is reported and the loop goes on. What the outbox workers poll with.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running = false;

  constructor(
    private readonly intervalMs: number,
    private readonly tick: () => Promise<void>,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    this.running = true;
    this.schedule();
  }

  /** Stops polling; resolves once a tick in progress has ended. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((error: Error) => this.onError(error))
        .finally(() => {
          this.ticking = null;
          this.schedule();
        });
    }, this.intervalMs);
  }
}
