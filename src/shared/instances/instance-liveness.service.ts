import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '../clock';
import { InstanceIdentity, processRunning } from './instance-identity';
import { INSTANCE_REGISTRY, InstanceRecord, InstanceRegistry } from './instance-registry.port';
import { deadInstances } from './liveness';
import { LIVENESS_OPTIONS, LivenessOptions } from './liveness.options';

/** Records of instances silent this long are deleted at start-up, so the registry stays small. */
const FORGET_AFTER_MS = 60 * 60 * 1000;

/**
 * This process's heartbeat, and what it knows of the others'. Where process managers run, it
 * records a heartbeat every HEARTBEAT_INTERVAL_MS and reads every instance's in the same round
 * (one write and one small read per process per interval, nothing per message). Work held by an
 * instance found dead is then taken over at once by whoever listens (the dispatcher's leases, the
 * orphan reaper).
 *
 * It also keeps this process honest: when its own heartbeats stop landing, the others will soon
 * call it dead and take its work, so `fresh()` turns false well before that and no new carrier
 * submission starts here.
 */
@Injectable()
export class InstanceLiveness {
  private readonly logger = new Logger('liveness');
  private dead: ReadonlySet<string> = new Set();
  /** When the last heartbeat that landed was taken (epoch ms); 0 before the first. */
  private lastBeat = 0;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private running = false;
  private readonly listeners: Array<(ids: readonly string[]) => void> = [];

  constructor(
    private readonly identity: InstanceIdentity,
    @Inject(INSTANCE_REGISTRY) private readonly registry: InstanceRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LIVENESS_OPTIONS) readonly options: LivenessOptions,
  ) {}

  get id(): string {
    return this.identity.id;
  }

  /** Records the first heartbeat and reads the others' before anything takes work. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const before = new Date(this.clock.now().getTime() - FORGET_AFTER_MS).toISOString();
    await this.registry
      .forget(before)
      .catch((error) => this.logger.warn(`forgetting old instances failed: ${String(error)}`));
    await this.runRound();
    this.schedule();
  }

  /**
   * Stops the heartbeat. `clean`: this process handed its work back (its submissions ended, its
   * partitions given up), so it is recorded as stopped and nobody waits for its heartbeat to age.
   */
  async stop({ clean }: { clean: boolean }): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round;
    if (!clean) return;
    await this.registry
      .stopped(this.id, this.clock.now().toISOString())
      .catch((error) => this.logger.warn(`recording this instance as stopped failed: ${String(error)}`));
  }

  /** True when the instance is known dead (never for one without a record, nor for this one). */
  isDead(instanceId: string): boolean {
    return this.dead.has(instanceId);
  }

  deadInstances(): ReadonlySet<string> {
    return this.dead;
  }

  /**
   * True while this process's own heartbeat is recent enough that nobody can call it dead for a
   * while yet (half the limit left). Without a heartbeat running (no process managers) only the
   * leases count.
   */
  fresh(): boolean {
    if (!this.running) return true;
    const age = this.clock.now().getTime() - this.lastBeat;
    return age < this.options.deadAfterMs / 2;
  }

  /** Hears the instances found dead since the previous round (those dead at start-up included). */
  onDeaths(listener: (ids: readonly string[]) => void): void {
    this.listeners.push(listener);
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runRound().finally(() => this.schedule());
    }, this.options.heartbeatIntervalMs);
    this.timer.unref?.();
  }

  private runRound(): Promise<void> {
    this.round = this.beatAndLook();
    return this.round;
  }

  private async beatAndLook(): Promise<void> {
    const at = this.clock.now();
    // A round that comes late means this process was held up (a busy machine, a long pause):
    // the others' heartbeats may have waited for the same reason, so none is judged dead by its
    // age this round; stopped instances and vanished pids still are.
    const late = this.lastBeat > 0 && at.getTime() - this.lastBeat > this.options.deadAfterMs / 2;
    try {
      await this.registry.beat({
        id: this.id,
        host: this.identity.host,
        pid: this.identity.pid,
        startedAt: this.identity.startedAt,
        beatAt: at.toISOString(),
      });
      this.lastBeat = at.getTime();
    } catch (error) {
      this.logger.warn(`recording the heartbeat failed; retried next round: ${String(error)}`);
    }
    let records: InstanceRecord[];
    try {
      records = await this.registry.list();
    } catch (error) {
      // Unknown is never dead: without a fresh view, work waits for the fixed leases instead.
      this.dead = new Set();
      this.logger.warn(`reading the other instances failed: ${String(error)}`);
      return;
    }
    const dead = deadInstances(
      records.filter((r) => r.id !== this.id),
      {
        now: this.clock.now(),
        deadAfterMs: late ? Number.POSITIVE_INFINITY : this.options.deadAfterMs,
        host: this.identity.host,
        running: processRunning,
      },
    );
    const newlyDead = [...dead].filter((id) => !this.dead.has(id));
    this.dead = dead;
    if (newlyDead.length > 0) for (const listener of this.listeners) listener(newlyDead);
  }
}
