import { join } from 'node:path';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, loadConfig } from '../config/app-config';
import { CLOCK, systemClock } from './clock';
import { AggregateStore } from './event-store/aggregate-store';
import { createEventStore } from './event-store/create-event-store';
import { EVENT_STORE, EventStore } from './event-store/event-store.port';
import { HealthController } from './http/health.controller';
import { createInstanceRegistry } from './instances/create-instance-registry';
import { InstanceIdentity } from './instances/instance-identity';
import { InstanceLiveness } from './instances/instance-liveness.service';
import { INSTANCE_REGISTRY, InstanceRegistry } from './instances/instance-registry.port';
import { LIVENESS_OPTIONS, loadLivenessOptions } from './instances/liveness.options';
import { PerAddressRateLimit, RateLimiter } from './http/rate-limiter';
import { ProjectionsService } from './projections/projections.service';
import { ReadModelChanges } from './projections/read-model-changes';
import { RebuildProjectionsHandler } from './projections/rebuild-projections.handler';
import { WalCheckpoints } from './sqlite/wal-checkpoints.service';
import { AppendNotices } from './threads/append-notices';
import { THREAD_BRIDGE } from './threads/thread-bridge';
import { createThreadBridge } from './threads/thread-bridge.provider';
import { WorkerThread } from './threads/worker-thread';
import { createReadStore } from './read-store/create-read-store';
import { READ_STORE, ReadStore } from './read-store/read-store.port';
import { loadSecretBoxKey, SECRET_BOX, SecretBox } from './secret-box';

/** The infrastructure every context shares: configuration, clock, stores and projections. */
@Global()
@Module({
  controllers: [HealthController],
  providers: [
    { provide: APP_CONFIG, useFactory: () => loadConfig() },
    { provide: CLOCK, useValue: systemClock },
    { provide: THREAD_BRIDGE, useFactory: createThreadBridge, inject: [APP_CONFIG] },
    { provide: EVENT_STORE, useFactory: createEventStore, inject: [APP_CONFIG] },
    { provide: READ_STORE, useFactory: createReadStore, inject: [APP_CONFIG] },
    { provide: InstanceIdentity, useFactory: () => new InstanceIdentity() },
    { provide: INSTANCE_REGISTRY, useFactory: createInstanceRegistry, inject: [APP_CONFIG] },
    { provide: LIVENESS_OPTIONS, useFactory: () => loadLivenessOptions() },
    InstanceLiveness,
    {
      provide: AggregateStore,
      useFactory: (events: EventStore) => new AggregateStore(events),
      inject: [EVENT_STORE],
    },
    {
      provide: SECRET_BOX,
      useFactory: (config: AppConfig) =>
        new SecretBox(loadSecretBoxKey(config.secretBoxKey, join(config.dataDir, 'secret-box.key'))),
      inject: [APP_CONFIG],
    },
    ProjectionsService,
    ReadModelChanges,
    RateLimiter,
    PerAddressRateLimit,
    RebuildProjectionsHandler,
    WalCheckpoints,
    AppendNotices,
    WorkerThread,
  ],
  exports: [
    THREAD_BRIDGE,
    APP_CONFIG,
    CLOCK,
    EVENT_STORE,
    READ_STORE,
    AggregateStore,
    InstanceIdentity,
    InstanceLiveness,
    ProjectionsService,
    ReadModelChanges,
    RateLimiter,
    PerAddressRateLimit,
    SECRET_BOX,
  ],
})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(INSTANCE_REGISTRY) private readonly instances: InstanceRegistry,
    @Inject(APP_CONFIG) readonly config: AppConfig,
  ) {}

  /** Runs after every other module's shutdown hook (Nest shuts down in reverse order), closing the files last. */
  async onApplicationShutdown(): Promise<void> {
    await this.events.close();
    await this.reads.close();
    await this.instances.close();
  }
}
