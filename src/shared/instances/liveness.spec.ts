import type { InstanceRecord } from './instance-registry.port';
import { deadInstances, isDead, LivenessView } from './liveness';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const record = (beatMs: number, over: Partial<InstanceRecord> = {}): InstanceRecord => ({
  id: 'ins_a',
  host: 'boot/pid:[1]',
  pid: 100,
  startedAt: new Date(T0).toISOString(),
  beatAt: new Date(T0 + beatMs).toISOString(),
  stoppedAt: null,
  ...over,
});
const view = (nowMs: number, over: Partial<LivenessView> = {}): LivenessView => ({
  now: new Date(T0 + nowMs),
  deadAfterMs: 5_000,
  host: 'boot/pid:[1]',
  running: () => true,
  ...over,
});

describe('instance liveness', () => {
  it('is alive while its heartbeat is recent, dead once it is older than the limit', () => {
    expect(isDead(record(0), view(5_000))).toBe(false);
    expect(isDead(record(0), view(5_001))).toBe(true);
  });

  it('is dead at once when it stopped cleanly', () => {
    expect(isDead(record(0, { stoppedAt: new Date(T0).toISOString() }), view(1))).toBe(true);
  });

  it('is dead at once when it ran in this process table and its pid is gone', () => {
    const gone = view(1, { running: (pid) => pid !== 100 });
    expect(isDead(record(0), gone)).toBe(true);
    expect(isDead(record(0, { pid: 101 }), gone)).toBe(false);
  });

  it('never asks about a pid of another process table (another machine or container)', () => {
    const asked: number[] = [];
    const running = (pid: number) => (asked.push(pid), false);
    expect(isDead(record(0, { host: 'other/pid:[2]' }), view(1, { running }))).toBe(false);
    expect(isDead(record(0, { host: null }), view(1, { host: null, running }))).toBe(false);
    expect(asked).toEqual([]);
  });

  it('lists the dead among the recorded', () => {
    const records = [record(0, { id: 'ins_old' }), record(4_000, { id: 'ins_new' })];
    expect(deadInstances(records, view(6_000))).toEqual(new Set(['ins_old']));
  });
});
