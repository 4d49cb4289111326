import { NextDue, PollingLoop } from './polling-loop';

/**
 * The loop's pace under jest's fake clock: when each tick runs is the behaviour under test, and
 * the fake clock makes it exact without waiting (no timed test).
 */
describe('PollingLoop', () => {
  let ticks: number[];
  let answers: NextDue[];
  /** What the tick answers once `answers` run out. */
  let otherwise: NextDue;
  let loop: PollingLoop;
  let wakeUp: (() => void) | null;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    ticks = [];
    answers = [];
    otherwise = undefined;
    wakeUp = null;
  });

  afterEach(async () => {
    await loop.stop();
    jest.useRealTimers();
  });

  /** A tick that records when it ran and answers the next of `answers` (then `otherwise`). */
  const tick = async (): Promise<NextDue> => {
    ticks.push(Date.now() - 1_000_000);
    return answers.length > 0 ? answers.shift() : otherwise;
  };

  /** Advances the fake clock and lets the ticks' promises settle. */
  async function advance(ms: number): Promise<void> {
    await jest.advanceTimersByTimeAsync(ms);
  }

  function resting(restMs = 10_000): PollingLoop {
    return new PollingLoop(100, tick, (e) => fail(e), {
      restMs,
      wakeOn: (wake) => {
        wakeUp = wake;
        return () => (wakeUp = null);
      },
    });
  }

  it('polls every interval when it has no resting options', async () => {
    loop = new PollingLoop(100, tick, (e) => fail(e));
    loop.start();
    await advance(350);
    expect(ticks).toEqual([100, 200, 300]);
  });

  it('polls every interval while its tick answers nothing (work under way)', async () => {
    loop = resting();
    loop.start();
    await advance(350);
    expect(ticks).toEqual([100, 200, 300]);
  });

  it('rests for restMs when its tick knows of nothing due', async () => {
    loop = resting();
    otherwise = null;
    loop.start();
    await advance(25_000);
    expect(ticks).toEqual([100, 10_100, 20_100]);
  });

  it('comes back when the next item falls due, never sooner than the interval nor later than restMs', async () => {
    loop = resting();
    const start = 1_000_000;
    answers = [start + 2_000, start + 2_030, start + 60_000];
    otherwise = null;
    loop.start();
    await advance(15_000);
    // 2,000 as answered; then 2,030 is only 30 ms on: the interval first; then a minute: restMs.
    expect(ticks).toEqual([100, 2_000, 2_100, 12_100]);
  });

  it('a change wakes a resting loop, after the interval since its last look', async () => {
    loop = resting();
    otherwise = null;
    loop.start();
    await advance(150);
    expect(ticks).toEqual([100]);
    wakeUp?.();
    await advance(100);
    expect(ticks).toEqual([100, 200]);
    // Woken long after its last look: at once.
    await advance(5_000);
    wakeUp?.();
    await advance(0);
    expect(ticks).toEqual([100, 200, 5_250]);
  });

  it('looks again after the interval when a change came while it was ticking', async () => {
    let release!: () => void;
    loop = new PollingLoop(
      100,
      async () => {
        ticks.push(Date.now() - 1_000_000);
        if (ticks.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return null;
      },
      (e) => fail(e),
      { restMs: 10_000, wakeOn: (wake) => ((wakeUp = wake), () => undefined) },
    );
    loop.start();
    await advance(100);
    wakeUp?.(); // during the first tick, which then answers "nothing due"
    await advance(50);
    release();
    await advance(100);
    expect(ticks).toEqual([100, 250]);
    await advance(20_000);
    expect(ticks).toEqual([100, 250, 10_250, 20_250]);
  });

  it('reports a failed tick and looks again after the interval', async () => {
    const errors: Error[] = [];
    loop = new PollingLoop(
      100,
      async () => {
        ticks.push(Date.now() - 1_000_000);
        if (ticks.length === 1) throw new Error('store down');
        return null;
      },
      (error) => errors.push(error),
      { restMs: 10_000 },
    );
    loop.start();
    await advance(250);
    expect(errors.map((e) => e.message)).toEqual(['store down']);
    expect(ticks).toEqual([100, 200]);
  });

  it('stops waking once stopped, and unsubscribes from the signal', async () => {
    loop = resting();
    answers = [null];
    loop.start();
    await advance(100);
    await loop.stop();
    expect(wakeUp).toBeNull();
    await advance(30_000);
    expect(ticks).toEqual([100]);
  });
});
