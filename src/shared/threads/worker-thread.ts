import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { InstanceIdentity } from '../instances/instance-identity';
import { THREAD_BRIDGE, ThreadBridge } from './thread-bridge';

/** The worker's heap: its read models' and process managers' caches, bounded (RecentlyUsed). */
const WORKER_HEAP_MB = 192;
/**
 * Its young generation. V8 sizes it from the old generation's cap, which at 192 MB leaves a
 * semi-space of a few MB: a page of events and the documents pending for the next commit
 * outlived each scavenge and were copied again and again (13% of the worker in GC under
 * sustained load). 64 MB lets them die young: settled throughput went from ~1,450 to ~2,000
 * messages a second on the sustained benchmark, and peak RSS went down, not up.
 */
const WORKER_YOUNG_GENERATION_MB = 64;

/**
 * The HTTP thread's side of the server's worker thread (src/worker.main.ts): starts it with
 * THREAD_ROLE=worker, attaches it to the thread bridge, and stops it before the HTTP thread's
 * stores close, so its last commits and the wallet commands it sends here still land.
 * A worker that dies takes the process with it: a supervisor restarts the whole server, and
 * every process manager resumes from its checkpoint.
 */
@Injectable()
export class WorkerThread implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('worker-thread');
  private worker: Worker | null = null;
  private stopping = false;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(THREAD_BRIDGE) private readonly bridge: ThreadBridge,
    private readonly instance: InstanceIdentity,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.threadRole !== 'api') return;
    // The entry next to src/main: .js when built, .ts under ts-node (its hook comes along with
    // the process's exec arguments, which a worker inherits).
    const entry = join(__dirname, '..', '..', `worker.main${extname(__filename)}`);
    const worker = new Worker(entry, {
      env: { ...process.env, THREAD_ROLE: 'worker' },
      // One instance per process: the worker's dispatch leases and heartbeat are this thread's too.
      workerData: { instanceId: this.instance.id },
      resourceLimits: {
        maxOldGenerationSizeMb: WORKER_HEAP_MB,
        maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
      },
    });
    this.worker = worker;
    this.bridge.attach(worker);
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.bridge.disconnect(new Error('the worker thread has stopped'));
        resolve();
        if (!this.stopping) {
          this.logger.fatal(
            `the worker thread exited (${code}); the server stops so that it is restarted whole`,
          );
          process.exit(1);
        }
      }),
    );
    worker.on('error', (error) => this.logger.error('the worker thread failed', error.stack));
  }

  /** Lets the worker finish (its submissions in flight, its last commits), then waits for it. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    this.stopping = true;
    // Answered at once; the worker then closes and exits (its answer is not waited for).
    this.bridge.request('shutdown', null).catch(() => undefined);
    await this.exited;
  }
}
