import { Body, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { MintApiKey, MintedKey } from '../../accounts/application/commands/mint-api-key.command';
import { RevokeApiKey } from '../../accounts/application/commands/revoke-api-key.command';
import { ApiKeys } from '../../accounts/application/queries/api-keys.query';
import { StartCheckout } from '../../billing/application/commands/start-checkout.command';
import { CheckoutById } from '../../billing/application/queries/checkout-by-id.query';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CancelMessage } from '../../messaging/application/commands/cancel-message.command';
import { SendMessage } from '../../messaging/application/commands/send-message.command';
import { MessageActivity } from '../../messaging/application/queries/message-activity.query';
import { MessageById } from '../../messaging/application/queries/message-by-id.query';
import { MessagesPage } from '../../messaging/application/queries/messages-page.query';
import { DomainError } from '../../shared/domain-error';
import { formatMoney } from '../../shared/money';
import { rememberFormSend } from '../../shared/metrics/form-send';
import { WalletEventsPage } from '../../wallet/application/queries/wallet-events-page.query';
import { WebhookEndpointsList } from '../../webhooks/application/queries/webhook-endpoints-list.query';
import { ChooseEnvironment } from '../application/commands/choose-environment.command';
import {
  BUCKET_LABELS,
  creditsPerDayChart,
  deliveryRateChart,
  formatRate,
  activityTotals,
  messagesPerDayChart,
  overallDelivery,
  STACK_ORDER,
} from './activity-charts';
import { safeNext, signedIn } from './console-auth';
import { ConsolePage, ConsolePages, FormRefusal, notFoundPage, Requires } from './console-page';
import {
  BuyCreditsForm,
  CheckoutReturnQuery,
  EnvironmentForm,
  HistoryPageQuery,
  MessagesPageQuery,
  MintKeyForm,
  OnceForm,
  SendForm,
} from './console-forms.dto';
import {
  ConsolePageError,
  ConsoleRequest,
  field,
  redirect,
  sendFormInput,
  walletSmsLeft,
} from './console-http';
import { awaitingOutcome, formSendAt, REFRESH_SECONDS } from './outcome-refresh';
import { historyRow } from './wallet-history';

const MINTED_KEY_SLOT = 'minted-key';
const HISTORY_PAGE_SIZE = 50;
const MESSAGES_PAGE_SIZE = 20;
const FINAL_CHECKOUT = new Set(['succeeded', 'failed', 'expired']);

/** The prefix of the Idempotency-Key a console send form carries (its one-time token follows). */
const CONSOLE_SEND_KEY = 'console-send-';

/**
 * The signed-in console. Every action is dispatched through the same command and query buses,
 * to the same use cases, as the HTTP API's: keys, sends and messages, checkouts, the wallet's
 * balance and history, webhook endpoints.
 */
@ConsolePages()
export class ConsoleController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async overview(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const [smsLeft, recent, activity] = await Promise.all([
      walletSmsLeft(this.queries, walletId),
      this.queries.execute(new MessagesPage({ walletId, environment }, 5)),
      this.queries.execute(new MessageActivity(walletId)),
    ]);
    await this.page.render(request, reply, 'overview', {
      title: 'Overview',
      nav: 'overview',
      smsLeft,
      messages: recent.data,
      activity,
      totals: activityTotals(activity.days),
      overall: overallDelivery(activity.carriers),
      // A wallet that never sent anything is told where to start instead of shown empty charts.
      firstSteps: recent.data.length === 0,
      charts: {
        messages: messagesPerDayChart(activity.days),
        delivery: deliveryRateChart(activity.carriers),
        credits: creditsPerDayChart(activity.days),
      },
      buckets: STACK_ORDER.map((bucket) => ({ bucket, label: BUCKET_LABELS[bucket] })),
      formatRate,
    });
  }

  @Post('environment')
  @Requires('read')
  async chooseEnvironment(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: EnvironmentForm,
  ): Promise<void> {
    const { session } = signedIn(request);
    const environment = field(body, 'environment');
    if (environment !== 'TEST' && environment !== 'LIVE')
      throw new ConsolePageError(400, 'Unknown environment', 'Choose TEST or LIVE.');
    await this.commands.execute(new ChooseEnvironment(session, environment));
    // Detail pages belong to one environment; go to the list of the same kind instead.
    const next = safeNext(field(body, 'next'));
    redirect(reply, next.replace(/^(\/console\/(?:messages|billing))\/.*$/, '$1').replace(/\?.*$/, ''));
  }

  // ---- API keys -------------------------------------------------------------------------

  @Get('keys')
  async keys(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    // Shown once: taken (and so deleted) by this very read; a reload finds nothing.
    const minted = this.page.takeFlash<MintedKey>(request, MINTED_KEY_SLOT);
    await this.renderKeys(request, reply, { minted });
  }

  @Post('keys')
  @Requires('develop')
  async mintKey(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: MintKeyForm,
  ): Promise<void> {
    const { account, actor } = signedIn(request);
    const environment = field(body, 'environment');
    await this.page.submit(request, reply, body, {
      // Sent twice (a double click, a resubmitted page), the form mints one key.
      once: 'mint-key',
      act: async () => {
        if (environment !== 'TEST' && environment !== 'LIVE')
          throw new DomainError(
            'invalid_request',
            'invalid_environment',
            'Choose the TEST or LIVE environment.',
          );
        const minted = await this.commands.execute(
          new MintApiKey(
            account.id,
            environment,
            field(body, 'name'),
            { scope: field(body, 'scope') || 'full', allowedIps: field(body, 'allowed_ips') },
            actor,
          ),
        );
        this.page.putFlash(request, MINTED_KEY_SLOT, minted);
        return '/console/keys';
      },
      refused: (refusal) => this.renderKeys(request, reply, { refusal }),
    });
  }

  @Post('keys/:id/revoke')
  @Requires('develop')
  async revokeKey(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ): Promise<void> {
    const { account, actor } = signedIn(request);
    await this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(new RevokeApiKey(id, account.id, actor));
        return '/console/keys';
      },
    });
  }

  private async renderKeys(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { minted?: MintedKey | null; refusal?: FormRefusal },
  ): Promise<void> {
    const keys = await this.queries.execute(new ApiKeys(signedIn(request).account.id));
    await this.page.render(
      request,
      reply,
      'keys',
      {
        title: 'API keys',
        nav: 'keys',
        keys,
        minted: extra.minted ?? null,
        error: extra.refusal?.message ?? null,
      },
      extra.refusal?.status,
    );
  }

  // ---- Messages -------------------------------------------------------------------------

  @Get('send')
  @Requires('send')
  async sendPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderSend(request, reply, {});
  }

  @Post('send')
  @Requires('send')
  async send(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: SendForm,
  ): Promise<void> {
    const { sender } = signedIn(request);
    const input = sendFormInput(body, field(body, 'type') || 'transactional');
    await this.page.submit(request, reply, body, {
      // The API's one send path: same validation, reservation, queue and outcome. The form's
      // one-time token is its Idempotency-Key, so the same form sent twice sends one message.
      act: async (token) => {
        const sent = await this.commands.execute(
          new SendMessage(sender, input, `${CONSOLE_SEND_KEY}${token}`),
        );
        rememberFormSend(request, sent.replayed);
        return `/console/messages/${encodeURIComponent(sent.message.id)}`;
      },
      refused: (refusal) => this.renderSend(request, reply, { input, refusal }),
      alreadySent:
        'This send form was already sent once, so it was not sent again. See Messages for what was sent, or open Send for a new message.',
    });
  }

  private async renderSend(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { input?: Record<string, string>; refusal?: FormRefusal },
  ): Promise<void> {
    const { walletId } = signedIn(request);
    await this.page.render(
      request,
      reply,
      'send',
      {
        title: 'Send a message',
        nav: 'send',
        smsLeft: await walletSmsLeft(this.queries, walletId),
        input: extra.input ?? { to: '', sender_id: '', message: '', type: 'transactional' },
        sendAtValue: formSendAt(extra.input?.send_at),
        error: extra.refusal?.message ?? null,
        errorParam: extra.refusal?.param ?? null,
      },
      extra.refusal?.status,
    );
  }

  @Get('messages')
  async messageList(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: MessagesPageQuery,
  ): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const cursor = query.starting_after || undefined;
    const list = await this.page.found(
      () => this.queries.execute(new MessagesPage({ walletId, environment }, MESSAGES_PAGE_SIZE, cursor)),
      'message',
    );
    const last = list.data[list.data.length - 1];
    await this.page.render(request, reply, 'messages', {
      title: 'Messages',
      nav: 'messages',
      messages: list.data,
      nextHref:
        list.has_more && last ? `/console/messages?starting_after=${encodeURIComponent(last.id)}` : null,
      firstHref: cursor ? '/console/messages' : null,
    });
  }

  @Get('messages/:id')
  async message(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const { account } = signedIn(request);
    // Either of the account's wallets: a link keeps working after switching environment.
    const message = await this.inEitherEnvironment(account.wallets, (scope) =>
      this.queries.execute(new MessageById(id, scope)),
    );
    if (!message) throw notFoundPage('message');
    const awaiting = awaitingOutcome([message], Date.now());
    await this.page.render(request, reply, 'message', {
      title: `Message ${message.id}`,
      nav: 'messages',
      message,
      final: !awaiting,
      cancelable: message.status === 'SCHEDULED',
      refreshSeconds: awaiting ? REFRESH_SECONDS : null,
      backHref: '/console/messages',
      backLabel: 'All messages',
    });
  }

  /** A SCHEDULED message's Cancel button: CANCELED and its credits back (the API's cancel), then its page. */
  @Post('messages/:id/cancel')
  @Requires('send')
  async cancelMessage(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const messagePage = `/console/messages/${encodeURIComponent(id)}`;
    await this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(new CancelMessage(id, { walletId, environment }));
        return messagePage;
      },
      // Already canceled (the same form twice) or already on its way: its page says which.
      refused: async () => redirect(reply, messagePage),
      shows: ['conflict'],
    });
  }

  // ---- Credit ---------------------------------------------------------------------------

  @Get('billing')
  @Requires('billing')
  async billing(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderBilling(request, reply);
  }

  @Post('billing/checkout')
  @Requires('billing')
  async startCheckout(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: BuyCreditsForm,
  ): Promise<void> {
    const { account, walletId, environment, actor } = signedIn(request);
    const packageId = field(body, 'package_id');
    await this.page.submit(request, reply, body, {
      // The same use case as POST /v1/billing/checkout; the browser comes back to the console.
      // Sent twice, the form goes to the one checkout it started.
      once: `checkout:${packageId}`,
      act: async () => {
        const started = await this.commands.execute(
          new StartCheckout(
            { accountId: account.id, walletId, environment },
            {
              packageId,
              successUrl: `${this.config.publicUrl}/console/billing/return`,
              cancelUrl: `${this.config.publicUrl}/console/billing`,
            },
            actor,
          ),
        );
        return started.checkout_url;
      },
      refused: (refusal) => this.renderBilling(request, reply, refusal),
      shows: ['invalid_request', 'unavailable'],
    });
  }

  @Get('billing/return')
  @Requires('billing')
  async checkoutReturn(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: CheckoutReturnQuery,
  ): Promise<void> {
    const { account } = signedIn(request);
    const found = await this.inEitherEnvironment(account.wallets, async (scope) => ({
      checkout: await this.queries.execute(
        new CheckoutById({ accountId: account.id, ...scope }, query.checkout_id),
      ),
      environment: scope.environment,
    }));
    if (!found) throw notFoundPage('checkout');
    const final = FINAL_CHECKOUT.has(found.checkout.status);
    const pkg = this.config.packages.find((p) => p.id === found.checkout.package_id);
    await this.page.render(request, reply, 'billing-return', {
      title: 'Checkout',
      nav: 'buy',
      checkout: found.checkout,
      checkoutEnvironment: found.environment,
      packageName: pkg?.name ?? found.checkout.package_id,
      price: formatMoney(found.checkout.amount, found.checkout.currency),
      smsLeft: await walletSmsLeft(this.queries, account.wallets[found.environment]),
      final,
      refreshSeconds: final ? null : REFRESH_SECONDS,
    });
  }

  private async renderBilling(
    request: ConsoleRequest,
    reply: FastifyReply,
    refusal?: FormRefusal,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    await this.page.render(
      request,
      reply,
      'billing',
      {
        title: 'Buy credits',
        nav: 'buy',
        smsLeft: await walletSmsLeft(this.queries, walletId),
        packages: this.config.packages.map((p) => ({ ...p, price: formatMoney(p.amount, p.currency) })),
        error: refusal?.message ?? null,
      },
      refusal?.status,
    );
  }

  // ---- Wallet history -------------------------------------------------------------------

  @Get('wallet')
  async history(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: HistoryPageQuery,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const after = query.after;
    const afterRevision = typeof after === 'string' && /^\d{1,15}$/.test(after) ? BigInt(after) : null;
    const events = await this.queries.execute(
      new WalletEventsPage(walletId, afterRevision, HISTORY_PAGE_SIZE),
    );
    const shown = events.data;
    const last = shown[shown.length - 1];
    await this.page.render(request, reply, 'history', {
      title: 'Wallet history',
      nav: 'history',
      walletId,
      events: shown.map(historyRow),
      nextHref: events.has_more && last ? `/console/wallet?after=${last.revision}` : null,
      firstHref: afterRevision !== null ? '/console/wallet' : null,
    });
  }

  // ---- Webhooks ---------------------------------------------------------------------------

  /** The wallet's webhook endpoints, with those disabled after a day of failures marked so. */
  @Get('webhooks')
  async webhookEndpoints(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { walletId } = signedIn(request);
    const endpoints = await this.queries.execute(new WebhookEndpointsList(walletId));
    await this.page.render(request, reply, 'webhooks', {
      title: 'Webhooks',
      nav: 'webhooks',
      endpoints: endpoints.data,
    });
  }

  /**
   * A detail page's item in either of the account's wallets (TEST first), so a link keeps working
   * after switching environment; null when neither has it.
   */
  private async inEitherEnvironment<T>(
    wallets: Readonly<Record<'TEST' | 'LIVE', string>>,
    read: (scope: { walletId: string; environment: 'TEST' | 'LIVE' }) => Promise<T>,
  ): Promise<T | null> {
    for (const environment of ['TEST', 'LIVE'] as const) {
      try {
        return await read({ walletId: wallets[environment], environment });
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
      }
    }
    return null;
  }
}
