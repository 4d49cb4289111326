import { Inject, Logger, Module } from '@nestjs/common';
import { ComplianceModule } from '../compliance/compliance.module';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../config/app-config';
import { AggregateStore } from '../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../shared/event-store/event-store.port';
import { MessageMetrics } from '../shared/metrics/message.metrics';
import { ProjectionsService } from '../shared/projections/projections.service';
import { WalletService } from '../wallet/application/wallet.service';
import { WalletModule } from '../wallet/wallet.module';
import { ConfiguredCarrierRoutes } from './adapters/carrier-routes.adapter';
import { createLiveCarrier } from './adapters/live-carrier.factory';
import { TestCarrierSimulator } from './adapters/test-carrier/test-carrier.adapter';
import { DeliveryReceipts } from './application/delivery-receipts.service';
import { RecentSubmissions } from './application/recent-submissions';
import { IdempotencyKeys, IdempotentSend } from './application/idempotent-send.service';
import { BatchSend } from './application/batch-send.service';
import { SendBatchHandler } from './application/commands/send-batch.handler';
import { CampaignSends } from './application/campaign-sends.service';
import {
  CancelScheduledMessagesHandler,
  HoldCampaignCreditsHandler,
  QueueCampaignMessagesHandler,
  ReleaseCampaignHoldHandler,
} from './application/commands/campaign-sends.handlers';
import { SendConditionsHandler } from './application/queries/send-conditions.handler';
import { MessagesByIdsHandler } from './application/queries/messages-by-ids.handler';
import { BatchMessagesHttpController } from './http/batch-messages.http.controller';
import { ExpirySweeper, OrphanReaper, TestCarrierResume } from './application/message-maintenance.service';
import { dispatchProjection, MessageDispatcher } from './application/message-dispatcher.service';
import { MessageReader } from './application/message-reader';
import { AddRouteHandler } from './application/commands/add-route.handler';
import { CancelMessageHandler } from './application/commands/cancel-message.handler';
import { SendMessageHandler } from './application/commands/send-message.handler';
import { SendSecretMessageHandler } from './application/commands/send-secret-message.handler';
import { BatchByIdHandler } from './application/queries/batch-by-id.handler';
import { BatchQuoteHandler } from './application/queries/batch-quote.handler';
import { MessageByIdHandler } from './application/queries/message-by-id.handler';
import { MessageQuoteHandler } from './application/queries/message-quote.handler';
import { MessageActivityHandler } from './application/queries/message-activity.handler';
import { MessagesPageHandler } from './application/queries/messages-page.handler';
import { RoutesHandler } from './application/queries/routes.handler';
import { MessagingRuntime } from './application/messaging-runtime.service';
import { RouteRegistry, routesProjection } from './application/route-registry.service';
import { SendPipeline } from './application/send-pipeline.service';
import { TestSendQuota } from './application/test-send-quota';
import { settlementProcess } from './application/settlement.process';
import { MessagesHttpController } from './http/messages.http.controller';
import { SandboxMessagesHttpController } from './http/sandbox-messages.http.controller';
import { loadMessagingOptions, MESSAGING_OPTIONS } from './messaging.options';
import { CARRIER_ROUTES } from './ports/carrier.port';
import { messagesProjection } from './projections/messages.projection';
import { unqueuedReservationsProjection } from './projections/open-reservations.projection';

@Module({
  imports: [WalletModule, ComplianceModule],
  controllers: [MessagesHttpController, BatchMessagesHttpController, SandboxMessagesHttpController],
  providers: [
    { provide: MESSAGING_OPTIONS, useFactory: () => loadMessagingOptions() },
    {
      provide: TestCarrierSimulator,
      useFactory: (config: AppConfig) => {
        const logger = new Logger('test-carrier');
        return new TestCarrierSimulator({
          dlrDelayMs: config.testDlrDelayMs,
          log: (m, e) => logger.warn(`${m}: ${(e as Error)?.message}`),
        });
      },
      inject: [APP_CONFIG],
    },
    {
      provide: CARRIER_ROUTES,
      useFactory: (simulator: TestCarrierSimulator, config: AppConfig) =>
        new ConfiguredCarrierRoutes(simulator, config.carrierUrls, createLiveCarrier),
      inject: [TestCarrierSimulator, APP_CONFIG],
    },
    RouteRegistry,
    SendPipeline,
    TestSendQuota,
    IdempotencyKeys,
    IdempotentSend,
    BatchSend,
    CampaignSends,
    HoldCampaignCreditsHandler,
    QueueCampaignMessagesHandler,
    ReleaseCampaignHoldHandler,
    CancelScheduledMessagesHandler,
    SendConditionsHandler,
    MessagesByIdsHandler,
    MessageReader,
    SendMessageHandler,
    SendSecretMessageHandler,
    SendBatchHandler,
    AddRouteHandler,
    CancelMessageHandler,
    MessageByIdHandler,
    MessagesPageHandler,
    MessageQuoteHandler,
    MessageActivityHandler,
    BatchQuoteHandler,
    BatchByIdHandler,
    RoutesHandler,
    DeliveryReceipts,
    RecentSubmissions,
    MessageDispatcher,
    ExpirySweeper,
    OrphanReaper,
    TestCarrierResume,
    MessagingRuntime,
  ],
  // IdempotencyKeys: campaigns take an Idempotency-Key as sends do, on the same per-wallet keys.
  exports: [CARRIER_ROUTES, DeliveryReceipts, IdempotencyKeys],
})
export class MessagingModule {
  constructor(
    projections: ProjectionsService,
    routes: RouteRegistry,
    dispatcher: MessageDispatcher,
    wallets: WalletService,
    @Inject(EVENT_STORE) events: EventStore,
    aggregates: AggregateStore,
    metrics: MessageMetrics,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Counted where the dispatcher runs: the server's worker thread, or its only thread.
    if (runsProcessManagersHere(config)) metrics.dispatchBacklogFrom(() => dispatcher.backlog());
    projections.register(
      messagesProjection,
      unqueuedReservationsProjection,
      routesProjection(routes),
      dispatchProjection(dispatcher, aggregates),
      settlementProcess(wallets, events, new Logger('settlement')),
    );
  }
}
