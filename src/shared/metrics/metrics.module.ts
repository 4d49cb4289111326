import { Global, Module } from '@nestjs/common';
import { CheckoutMetrics } from './checkout.metrics';
import { MessageMetrics } from './message.metrics';
import { MetricsHttpController } from './metrics.http.controller';
import { MetricsRegistry } from './metrics.registry';
import { ProjectionMetrics } from './projection.metrics';
import { SendMetrics } from './send.metrics';
import { WalletMetrics } from './wallet.metrics';
import { VerifyMetrics } from './verify.metrics';
import { WebhookMetrics } from './webhook.metrics';

const FACADES = [SendMetrics, MessageMetrics, CheckoutMetrics, WebhookMetrics, WalletMetrics, VerifyMetrics];

/**
 * Prometheus metrics (docs/operations.md, Metrics): one registry, a small facade per concern
 * that the contexts call in one line, and GET /metrics.
 */
@Global()
@Module({
  controllers: [MetricsHttpController],
  providers: [MetricsRegistry, ProjectionMetrics, ...FACADES],
  exports: FACADES,
})
export class MetricsModule {}
