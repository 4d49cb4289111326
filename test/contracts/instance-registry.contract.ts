/*
 * The instance registry contract: what every adapter of the InstanceRegistry port must do,
 * written once and run against each (SQLite always; MongoDB when MONGODB_URL is set). Each test
 * gets a registry of its own (a fresh file, or a database namespace of its own), since list()
 * answers every instance recorded.
 */
import type { InstanceRegistry } from '../../src/shared/instances/instance-registry.port';

export interface InstanceRegistryFixture {
  /** Opens the test's registry; called twice, the two are two processes on one store. */
  open(): InstanceRegistry;
  cleanup(): Promise<void>;
}

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const beat = (id: string, beatMs: number, pid = 100) => ({
  id,
  host: 'boot/pid:[1]',
  pid,
  startedAt: at(0),
  beatAt: at(beatMs),
});

export function describeInstanceRegistryContract(
  name: string,
  factory: () => Promise<InstanceRegistryFixture>,
) {
  describe(`InstanceRegistry contract: ${name}`, () => {
    let fixture: InstanceRegistryFixture;
    let registries: InstanceRegistry[];
    const open = () => {
      const registry = fixture.open();
      registries.push(registry);
      return registry;
    };

    beforeEach(async () => {
      fixture = await factory();
      registries = [];
    });

    afterEach(async () => {
      for (const registry of registries) await registry.close();
      await fixture.cleanup();
    });

    it('records a heartbeat, then refreshes only its time', async () => {
      const registry = open();
      await registry.beat(beat('ins_a', 0));
      expect(await registry.list()).toEqual([{ ...beat('ins_a', 0), stoppedAt: null }]);
      await registry.beat({ ...beat('ins_a', 1_000), startedAt: at(999), pid: 7 });
      expect(await registry.list()).toEqual([{ ...beat('ins_a', 1_000), stoppedAt: null }]);
    });

    it('records a clean stop', async () => {
      const registry = open();
      await registry.beat(beat('ins_a', 0));
      await registry.beat(beat('ins_b', 0, 200));
      await registry.stopped('ins_a', at(500));
      const byId = new Map((await registry.list()).map((r) => [r.id, r]));
      expect(byId.get('ins_a')?.stoppedAt).toBe(at(500));
      expect(byId.get('ins_b')?.stoppedAt).toBeNull();
    });

    it('two processes on one store see each other’s heartbeats', async () => {
      const [one, two] = [open(), open()];
      await one.beat(beat('ins_a', 0));
      await two.beat(beat('ins_b', 100, 200));
      const ids = async (r: InstanceRegistry) => (await r.list()).map((i) => i.id).sort();
      expect(await ids(one)).toEqual(['ins_a', 'ins_b']);
      expect(await ids(two)).toEqual(['ins_a', 'ins_b']);
    });

    it('forgets the instances silent since before a time, and only those', async () => {
      const registry = open();
      await registry.beat(beat('ins_old', 0));
      await registry.beat(beat('ins_new', 5_000, 200));
      await registry.forget(at(1_000));
      expect((await registry.list()).map((r) => r.id)).toEqual(['ins_new']);
    });
  });
}
