import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  MetricObjectWithValues,
  MetricValue,
  Registry,
} from 'prom-client';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { THREAD_BRIDGE, ThreadBridge } from '../threads/thread-bridge';

const WORKER_METRICS = 'metrics.snapshot';

/** One series of a gauge read at scrape time. */
export interface Sample<L extends string> {
  readonly labels?: Partial<Record<L, string>>;
  readonly value: number;
}

let processRegistry: Registry | null = null;

/**
 * How often the event-loop lag is sampled (a timer of libuv's): prom-client's 10 ms woke an idle
 * server's thread a hundred times a second, more than all its own timers together. At 100 ms a
 * stall of the loop still shows whole in the lag (the sample due during it waits for it to end).
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Node's process metrics (CPU, memory, event-loop lag, GC) under their usual names, collected
 * once per process however many applications it runs (the e2e suites start many). Only where
 * GET /metrics is served: a worker thread's would be collected and never shown (the CPU and
 * memory figures are the process's anyway).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }
  return processRegistry;
}

/**
 * The application's Prometheus registry: the facades (send.metrics.ts, …) declare their series
 * here, and GET /metrics exposes them with the process metrics. One registry per application,
 * not prom-client's global one, so two applications in one process never share a counter.
 */
@Injectable()
export class MetricsRegistry {
  private readonly logger = new Logger('metrics');
  private readonly registry = new Registry();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(THREAD_BRIDGE) private readonly bridge: ThreadBridge,
  ) {
    if (config.threadRole !== 'worker') processMetrics();
    // The worker thread counts what happens there (outcomes, webhooks, the dispatcher and the
    // read models); the HTTP thread's GET /metrics shows both threads' series together.
    if (config.threadRole === 'worker') bridge.handle(WORKER_METRICS, () => this.registry.getMetricsAsJSON());
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  /**
   * A gauge computed when scraped: nothing is counted on the hot path. A sampler that fails
   * leaves its gauge without series for that scrape (and logs why) instead of failing the scrape.
   */
  gaugeAtScrape<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    sample: () => Promise<readonly Sample<L>[]>,
  ): void {
    const gauge: Gauge<L> = new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect: async () => {
        gauge.reset();
        try {
          for (const s of await sample()) gauge.set(s.labels ?? {}, s.value);
        } catch (error) {
          this.logger.warn(`${name} not sampled: ${(error as Error)?.message ?? String(error)}`);
        }
      },
    });
  }

  /**
   * The text exposition of the application's series (with the worker thread's, summed in where a
   * series is counted in both) followed by the process's.
   */
  async exposition(): Promise<string> {
    const [own, process] = await Promise.all([this.application(), processMetrics().metrics()]);
    return `${own.trimEnd()}\n${process.trimEnd()}\n`;
  }

  private async application(): Promise<string> {
    if (this.config.threadRole !== 'api') return this.registry.metrics();
    const [own, worker] = await Promise.all([
      this.registry.getMetricsAsJSON(),
      this.bridge.request<MetricObjectWithValues<MetricValue<string>>[]>(WORKER_METRICS, null),
    ]);
    return AggregatorRegistry.aggregate([own, worker]).metrics();
  }
}
