import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccountsService, MintedKey } from '../../accounts/application/accounts.service';
import { CheckoutsService } from '../../billing/application/checkouts.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MessageQueries } from '../../messaging/application/message-queries.service';
import { SendMessage } from '../../messaging/application/send-message.service';
import type { ApiMessage } from '../../messaging/projections/messages.projection';
import { DomainError } from '../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { isIdOf } from '../../shared/ids';
import { WalletBalances } from '../../wallet/application/wallet-balances.query';
import { WebhookEndpoints } from '../../webhooks/application/webhook-endpoints.service';
import { walletStream } from '../../wallet/domain/wallet.events';
import { ConsoleSessions } from '../application/console-sessions.service';
import { OneTimeFlash } from '../application/one-time-flash';
import { ConsoleCsrfGuard, safeNext, signedIn, SignedInGuard } from './console-auth';
import { ConsolePageError, ConsoleRequest, field, redirect, renderPage, sendFormInput } from './console-http';
import { formatMoney } from '../../shared/money';

const MINTED_KEY_SLOT = 'minted-key';
const HISTORY_PAGE_SIZE = 50;
const MESSAGES_PAGE_SIZE = 20;
const FINAL_STATUSES = new Set(['DELIVERED', 'FAILED', 'EXPIRED']);
const FINAL_CHECKOUT = new Set(['succeeded', 'failed', 'expired']);
/** While an outcome is not final, its page reloads itself this often (a meta refresh: works without JavaScript). */
export const REFRESH_SECONDS = 2;

const notFoundPage = () => new ConsolePageError(404, 'Not found', 'There is no such item in your account.');

/**
 * The signed-in console. Every action goes through the same services as the HTTP API:
 * AccountsService (keys), SendMessage and MessageQueries (messages), CheckoutsService (credit),
 * WalletBalances and the wallet's own event stream (balance and history).
 */
@ApiExcludeController()
@UseGuards(ConsoleCsrfGuard, SignedInGuard)
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: ConsoleSessions,
    private readonly flash: OneTimeFlash,
    private readonly balances: WalletBalances,
    private readonly sender: SendMessage,
    private readonly messages: MessageQueries,
    private readonly checkouts: CheckoutsService,
    private readonly webhooks: WebhookEndpoints,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async overview(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const [smsLeft, recent] = await Promise.all([
      this.smsLeft(walletId),
      this.messages.list({ walletId, environment }, 5),
    ]);
    await this.render(request, reply, 'overview', {
      title: 'Overview',
      nav: 'overview',
      walletId,
      smsLeft,
      messages: recent.data,
    });
  }

  @Post('environment')
  async chooseEnvironment(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const { session } = signedIn(request);
    const environment = field(body, 'environment');
    if (environment !== 'TEST' && environment !== 'LIVE')
      throw new ConsolePageError(400, 'Unknown environment', 'Choose TEST or LIVE.');
    await this.sessions.chooseEnvironment(session, environment);
    // Detail pages belong to one environment; go to the list of the same kind instead.
    const next = safeNext(field(body, 'next'));
    redirect(reply, next.replace(/^(\/console\/(?:messages|billing))\/.*$/, '$1').replace(/\?.*$/, ''));
  }

  // ---- API keys -------------------------------------------------------------------------

  @Get('keys')
  async keys(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { session, account } = signedIn(request);
    // Shown once: taken (and so deleted) by this very read; a reload finds nothing.
    const minted = this.flash.take<MintedKey>(session.handle, MINTED_KEY_SLOT);
    await this.renderKeys(request, reply, account.id, { minted });
  }

  @Post('keys')
  async mintKey(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const { session, account } = signedIn(request);
    const environment = field(body, 'environment');
    if (environment !== 'TEST' && environment !== 'LIVE') {
      return this.renderKeys(
        request,
        reply,
        account.id,
        { error: 'Choose the TEST or LIVE environment.' },
        400,
      );
    }
    try {
      const minted = await this.accounts.mintKey(account.id, environment, field(body, 'name'));
      this.flash.put(session.handle, MINTED_KEY_SLOT, minted);
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid_request') throw error;
      return this.renderKeys(request, reply, account.id, { error: error.message }, 400);
    }
    redirect(reply, '/console/keys');
  }

  @Post('keys/:id/revoke')
  async revokeKey(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const { account } = signedIn(request);
    const owned = (await this.accounts.listKeys(account.id, 1000)).some((k) => k.id === id);
    if (!isIdOf('key', id) || !owned) throw notFoundPage();
    await this.accounts.revokeKey(account.id, id);
    redirect(reply, '/console/keys');
  }

  private async renderKeys(
    request: ConsoleRequest,
    reply: FastifyReply,
    accountId: string,
    extra: { minted?: MintedKey | null; error?: string },
    status = 200,
  ): Promise<void> {
    const keys = (await this.accounts.listKeys(accountId, 1000)).map((k) => ({
      id: k.id,
      name: k.name,
      environment: k.environment,
      suffix: k.suffix,
      created_at: k.created_at,
      revoked_at: k.revoked_at,
    }));
    await this.render(
      request,
      reply,
      'keys',
      { title: 'API keys', nav: 'keys', keys, minted: extra.minted ?? null, error: extra.error ?? null },
      status,
    );
  }

  // ---- Messages -------------------------------------------------------------------------

  @Get('send')
  async sendPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderSend(request, reply, {});
  }

  @Post('send')
  async send(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const { walletId, environment, account } = signedIn(request);
    const input = sendFormInput(body, field(body, 'type') || 'transactional');
    let sent: ApiMessage;
    try {
      // The API's one send path: same validation, reservation, queue and outcome.
      sent = (await this.sender.send(input, { mode: 'wallet', walletId, accountId: account.id, environment }))
        .message;
    } catch (error) {
      if (
        !(error instanceof DomainError) ||
        !['invalid_request', 'insufficient_credit', 'unprocessable'].includes(error.kind)
      )
        throw error;
      return this.renderSend(
        request,
        reply,
        { input, error: error.message, errorParam: error.param ?? null },
        error.kind === 'insufficient_credit' ? 402 : 400,
      );
    }
    redirect(reply, `/console/messages/${encodeURIComponent(sent.id)}`);
  }

  private async renderSend(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { input?: Record<string, string>; error?: string; errorParam?: string | null },
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    await this.render(
      request,
      reply,
      'send',
      {
        title: 'Send a message',
        nav: 'send',
        smsLeft: await this.smsLeft(walletId),
        input: extra.input ?? { to: '', sender_id: '', message: '', type: 'transactional' },
        error: extra.error ?? null,
        errorParam: extra.errorParam ?? null,
      },
      status,
    );
  }

  @Get('messages')
  async messageList(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query('starting_after') startingAfter?: string,
  ): Promise<void> {
    const { walletId, environment } = signedIn(request);
    const cursor = typeof startingAfter === 'string' && startingAfter !== '' ? startingAfter : undefined;
    let list;
    try {
      list = await this.messages.list({ walletId, environment }, MESSAGES_PAGE_SIZE, cursor);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw notFoundPage();
      throw error;
    }
    const last = list.data[list.data.length - 1];
    await this.render(request, reply, 'messages', {
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
    let message: ApiMessage | null = null;
    for (const environment of ['TEST', 'LIVE'] as const) {
      const doc = await this.messages.find(id, { walletId: account.wallets[environment], environment });
      if (doc) {
        message = await this.messages.get(id, { walletId: account.wallets[environment], environment });
        break;
      }
    }
    if (!message) throw notFoundPage();
    const final = FINAL_STATUSES.has(message.status);
    await this.render(request, reply, 'message', {
      title: `Message ${message.id}`,
      nav: 'messages',
      message,
      final,
      refreshSeconds: final ? null : REFRESH_SECONDS,
      backHref: '/console/messages',
      backLabel: 'All messages',
    });
  }

  // ---- Credit ---------------------------------------------------------------------------

  @Get('billing')
  async billing(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.renderBilling(request, reply, null);
  }

  @Post('billing/checkout')
  async startCheckout(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ): Promise<void> {
    const { account, walletId, environment } = signedIn(request);
    let checkoutUrl: string;
    try {
      // The same checkout service as POST /v1/billing/checkout; the browser comes back to the console.
      const started = await this.checkouts.start(
        { accountId: account.id, walletId, environment },
        {
          package_id: field(body, 'package_id'),
          success_url: `${this.config.publicUrl}/console/billing/return`,
          cancel_url: `${this.config.publicUrl}/console/billing`,
        },
      );
      checkoutUrl = started.checkout_url;
    } catch (error) {
      if (
        !(error instanceof DomainError) ||
        (error.kind !== 'invalid_request' && error.kind !== 'unavailable')
      )
        throw error;
      return this.renderBilling(request, reply, error.message, 400);
    }
    redirect(reply, checkoutUrl);
  }

  @Get('billing/return')
  async checkoutReturn(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query('checkout_id') checkoutId?: string,
  ): Promise<void> {
    const { account } = signedIn(request);
    let found = null;
    for (const environment of ['TEST', 'LIVE'] as const) {
      try {
        found = {
          checkout: await this.checkouts.get(
            { accountId: account.id, walletId: account.wallets[environment], environment },
            checkoutId,
          ),
          environment,
        };
        break;
      } catch (error) {
        if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
      }
    }
    if (!found) throw notFoundPage();
    const final = FINAL_CHECKOUT.has(found.checkout.status);
    const pkg = this.config.packages.find((p) => p.id === found.checkout.package_id);
    await this.render(request, reply, 'billing-return', {
      title: 'Checkout',
      nav: 'buy',
      checkout: found.checkout,
      checkoutEnvironment: found.environment,
      packageName: pkg?.name ?? found.checkout.package_id,
      price: formatMoney(found.checkout.amount, found.checkout.currency),
      smsLeft: await this.smsLeft(account.wallets[found.environment]),
      final,
      refreshSeconds: final ? null : REFRESH_SECONDS,
    });
  }

  private async renderBilling(
    request: ConsoleRequest,
    reply: FastifyReply,
    error: string | null,
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    await this.render(
      request,
      reply,
      'billing',
      {
        title: 'Buy credits',
        nav: 'buy',
        smsLeft: await this.smsLeft(walletId),
        packages: this.config.packages.map((p) => ({ ...p, price: formatMoney(p.amount, p.currency) })),
        error,
      },
      status,
    );
  }

  // ---- Wallet history -------------------------------------------------------------------

  @Get('wallet')
  async history(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query('after') after?: string,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const afterRevision = typeof after === 'string' && /^\d{1,15}$/.test(after) ? BigInt(after) : null;
    const events = await this.events.readStream(walletStream(walletId), {
      fromRevision: afterRevision === null ? 0n : afterRevision + 1n,
      limit: HISTORY_PAGE_SIZE + 1,
    });
    const shown = events.slice(0, HISTORY_PAGE_SIZE);
    const last = shown[shown.length - 1];
    await this.render(request, reply, 'history', {
      title: 'Wallet history',
      nav: 'history',
      walletId,
      events: shown.map((e) => ({
        revision: Number(e.revision),
        type: e.type,
        data: JSON.stringify(e.data, null, 2),
        recorded_at: e.recordedAt.toISOString(),
      })),
      nextHref: events.length > HISTORY_PAGE_SIZE && last ? `/console/wallet?after=${last.revision}` : null,
      firstHref: afterRevision !== null ? '/console/wallet' : null,
    });
  }

  // ---- Webhooks ---------------------------------------------------------------------------

  /** The wallet's webhook endpoints, with those disabled after a day of failures marked so. */
  @Get('webhooks')
  async webhookEndpoints(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    const { walletId } = signedIn(request);
    const endpoints = await this.webhooks.list(walletId);
    await this.render(request, reply, 'webhooks', {
      title: 'Webhooks',
      nav: 'webhooks',
      endpoints: endpoints.data,
    });
  }

  /** What the wallet has left to send, as the header shows it (0 before its balance is projected). */
  private async smsLeft(walletId: string): Promise<number> {
    return (await this.balances.get(walletId))?.smsLeft ?? 0;
  }

  private render(
    request: ConsoleRequest,
    reply: FastifyReply,
    view: string,
    model: { title: string; [key: string]: unknown },
    status = 200,
  ) {
    return renderPage(request, reply, this.config.publicUrl, view, model, status);
  }
}
