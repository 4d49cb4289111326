import { Injectable, Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One series of a gauge read at scrape time. */
export interface Sample<L extends string> {
  readonly labels?: Partial<Record<L, string>>;
  readonly value: number;
}

let processRegistry: Registry | null = null;

/**
 * Node's process metrics (CPU, memory, event-loop lag, GC) under their usual names, collected
 * once per process however many applications it runs (the e2e suites start many).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
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

  constructor() {
    processMetrics();
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

  /** The text exposition of the application's series followed by the process's. */
  async exposition(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own.trimEnd()}\n${process.trimEnd()}\n`;
  }
}
