import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, runsProjectionsHere } from '../../config/app-config';
import { EVENT_STORE, EventStore } from '../event-store/event-store.port';
import { READ_STORE, ReadStore } from '../read-store/read-store.port';
import { THREAD_BRIDGE, ThreadBridge } from '../threads/thread-bridge';
import type { Projection } from './projection';
import { ProjectionRunner, type RebuildProgress } from './projection-runner';
import { ReadModelChanges } from './read-model-changes';

interface WaitRequest {
  readonly position: bigint;
  readonly names: readonly string[] | null;
}

/**
 * Collects the projections every context registers while the modules initialise, and runs
 * them once the application has booted. Commands wait here to read their own writes.
 *
 * In a server with a worker thread the worker runs them, and the HTTP thread's waits are
 * answered by it (through the thread bridge): the read models are one store either way.
 */
@Injectable()
export class ProjectionsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('projections');
  private readonly registered: Projection[] = [];
  private runner: ProjectionRunner | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(THREAD_BRIDGE) private readonly bridge: ThreadBridge,
    private readonly changes: ReadModelChanges,
  ) {}

  register(...projections: Projection[]): void {
    if (this.runner) throw new Error('Projections must be registered before the application boots');
    this.registered.push(...projections);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!runsProjectionsHere(this.config)) return;
    this.runner = this.createRunner();
    await this.runner.start();
    const runner = this.runner;
    this.bridge.handle<WaitRequest, void>('projections.waitFor', ({ position, names }) =>
      runner.waitFor(position, names),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner?.stop();
  }

  /** Resolves once the read models reflect the log up to `position` (see ProjectionRunner.waitFor). */
  async waitFor(position: bigint | null, names: readonly string[] | null = null): Promise<void> {
    if (position === null) return;
    if (!runsProjectionsHere(this.config)) {
      return this.bridge.request<void>('projections.waitFor', { position, names } satisfies WaitRequest);
    }
    if (!this.runner) throw new Error('Projections are not running yet');
    await this.runner.waitFor(position, names);
  }

  /** Waits until the read models have seen everything appended so far, by any process. */
  async catchUp(names: readonly string[] | null = null): Promise<void> {
    await this.waitFor(await this.events.headPosition(), names);
  }

  /** Rebuilds every read model from position zero (the runner in this process, or a fresh one). */
  async rebuild(onProgress?: (progress: RebuildProgress) => void): Promise<void> {
    await (this.runner ?? this.createRunner()).rebuild(onProgress);
  }

  /** The log position each projection running here has reached (none before boot or when stopped). */
  positions(): Record<string, bigint> {
    return this.runner?.positions() ?? {};
  }

  projections(): readonly Projection[] {
    return this.registered;
  }

  private createRunner(): ProjectionRunner {
    const selected = this.config.runProcessManagers
      ? this.registered
      : this.registered.filter((p) => p.kind !== 'process-manager');
    return new ProjectionRunner(this.events, this.store, selected, {
      log: (message, error) => this.logger.error(message, (error as Error)?.stack),
      onChanged: (collections) => this.changes.changed(collections),
    });
  }
}
