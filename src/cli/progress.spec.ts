import { positionDetail, ProgressReporter } from './progress';

function reporter(intervalMs: number, unit?: string) {
  let now = 10_000;
  const lines: string[] = [];
  const progress = new ProgressReporter('wallet:replay', {
    intervalMs,
    unit,
    write: (line) => lines.push(line),
    now: () => now,
  });
  return { progress, lines, advance: (ms: number) => (now += ms) };
}

describe('ProgressReporter', () => {
  it('stays silent for work shorter than the interval, closing line included', () => {
    const { progress, lines, advance } = reporter(1000);
    advance(400);
    progress.update(5000);
    advance(500);
    progress.update(10_000);
    progress.done(10_000);
    expect(lines).toEqual([]);
  });

  it('prints at most one line per interval, with the count, the rate and the detail, then a closing line', () => {
    const { progress, lines, advance } = reporter(1000);
    advance(1000);
    progress.update(50_000, 'position 10 of 40 (25%)');
    advance(300);
    progress.update(60_000);
    advance(700);
    progress.update(100_000);
    advance(500);
    progress.done(120_000);
    expect(lines).toEqual([
      'wallet:replay: 50,000 events in 1.0 s (50,000/s), position 10 of 40 (25%)\n',
      'wallet:replay: 100,000 events in 2.0 s (50,000/s)\n',
      'wallet:replay: 120,000 events in 2.5 s (48,000/s), done\n',
    ]);
  });

  it('reports every update with an interval of 0, in the unit it was given', () => {
    const { progress, lines, advance } = reporter(0, 'events applied');
    progress.update(500);
    advance(250);
    progress.update(1000);
    expect(lines).toEqual([
      'wallet:replay: 500 events applied in 0.0 s\n',
      'wallet:replay: 1,000 events applied in 0.3 s (4,000/s)\n',
    ]);
  });
});

describe('positionDetail', () => {
  it('says how far along the log the work is', () => {
    expect(positionDetail(250n, 1000n)).toBe('position 250 of 1000 (25%)');
    expect(positionDetail(0n, 0n)).toBe('position 0 of 0 (100%)');
  });
});
