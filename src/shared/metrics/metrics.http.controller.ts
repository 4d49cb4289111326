import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Registry } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../domain-error';
import { DomainErrorWithHeaders } from '../http/error-body';
import { MetricsRegistry } from './metrics.registry';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Prometheus's scrape target, outside /v1: no API key and no per-key rate limit. With
 * METRICS_TOKEN set it answers only `Authorization: Bearer <METRICS_TOKEN>`.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsHttpController {
  private readonly token: Buffer | null;

  constructor(
    private readonly metrics: MetricsRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.token = config.metricsToken ? digest(config.metricsToken) : null;
  }

  @Get()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  async scrape(@Headers('authorization') authorization?: string): Promise<string> {
    this.authorize(authorization);
    return this.metrics.exposition();
  }

  private authorize(authorization: string | undefined): void {
    if (!this.token) return;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    // Compared as digests: constant time whatever the length of what was presented.
    if (presented && timingSafeEqual(digest(presented), this.token)) return;
    throw new DomainErrorWithHeaders(
      new DomainError(
        'authentication',
        'invalid_metrics_token',
        'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
      ),
      { 'www-authenticate': 'Bearer realm="metrics"' },
    );
  }
}
