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

/**
 * The worker's heap, where the process is started without V8 heap flags (`npm run start:dev`,
 * `node dist/main.js`). V8's flags are the process's: `npm start`'s (`--max-old-space-size=256
 * --max-semi-space-size=8`, package.json) override a thread's resource limits, so there the worker
 * has a 256 MB old generation and 8 MB semi-spaces like the HTTP thread (measured 2026-11-27).
 * Letting it have these 64 MB of young generation under `npm start` (no `--max-semi-space-size`)
 * cut the worker's scavenges from about 1,180 to 280 behind a campaign of 100,000 and the server's
 * CPU for a campaign sent now by 15-20%, but added 50-80 MB of peak RSS, against a 300 MB target
 * already missed: not taken (docs/performance.md, "Campaign settlement, third pass").
 */
const WORKER_HEAP_MB = 192;
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
