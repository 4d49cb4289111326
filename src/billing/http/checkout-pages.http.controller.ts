import { Controller, Get, Inject, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { DomainErrorWithHeaders } from '../../shared/http/error-body';
import { RateLimiter } from '../../shared/http/rate-limiter';
import { contentSecurityPolicy } from '../../shared/http/security-headers';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DeclineCheckout } from '../application/commands/decline-checkout.command';
import { PayCheckout } from '../application/commands/pay-checkout.command';
import { StartProviderPayment } from '../application/commands/start-provider-payment.command';
import { VerifyCheckoutPayment } from '../application/commands/verify-checkout-payment.command';
import { HostedCheckout } from '../application/queries/hosted-checkout.query';
import { Checkout, statusAt } from '../domain/checkout.decider';
import {
  CheckoutSummary,
  messagePage,
  PAGE_STYLE_HASH,
  payPage,
  returnHost,
  withCheckoutId,
} from './checkout-page.html';

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // The service's one policy (helmet's), plus the hash of the page's own inline <style>.
  'content-security-policy': contentSecurityPolicy({ 'style-src': [PAGE_STYLE_HASH] }),
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

/** What a hosted-page request answers: a page, or a redirect. */
type Answer = { status: number; html: string; headers?: Record<string, string> } | { redirect: string };

/**
 * The hosted checkout (API.md: `/checkout/chk_…`, no sign-in): works with plain HTML forms, no
 * JavaScript. TEST pays through the built-in test provider (Pay / Decline); LIVE hands the shopper
 * to Paystack and verifies the payment server to server on the way back.
 */
@ApiExcludeController()
@Controller('checkout')
export class CheckoutPagesHttpController {
  private readonly logger = new Logger('checkout-pages');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private load(id: string): Promise<Checkout | null> {
    return this.queries.execute(new HostedCheckout(id));
  }

  @Get(':id')
  show(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.answer(request, reply, async () => {
      const state = await this.load(id);
      if (!state) return notFoundPage();
      const status = statusAt(state, this.clock.now());
      if (status === 'pending' && !state.payment) return { status: 200, html: payPage(this.summary(state)) };
      return this.statePage(state, 200);
    });
  }

  @Post(':id/pay')
  pay(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.answer(request, reply, async () => {
      const state = await this.load(id);
      if (!state) return notFoundPage();
      if (state.started!.provider !== 'test') {
        return {
          status: 400,
          html: messagePage('Not available', 'This checkout is paid through the payment provider.', {
            link: this.pageLink(state),
          }),
        };
      }
      const status = statusAt(state, this.clock.now());
      if (status === 'expired' || status === 'failed')
        return this.statePage(state, status === 'expired' ? 410 : 409);
      return this.outcome(await this.commands.execute(new PayCheckout(state.started!.checkoutId)));
    });
  }

  @Post(':id/decline')
  decline(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.answer(request, reply, async () => {
      const state = await this.load(id);
      if (!state) return notFoundPage();
      return this.outcome(await this.commands.execute(new DeclineCheckout(state.started!.checkoutId)));
    });
  }

  /** LIVE: initializes the provider's transaction (once) and sends the shopper there. */
  @Post(':id/start')
  start(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.answer(request, reply, async () => {
      const state = await this.load(id);
      if (!state) return notFoundPage();
      if (state.started!.provider === 'test')
        return { redirect: `/checkout/${encodeURIComponent(state.started!.checkoutId)}` };
      const redirect = await this.commands.execute(new StartProviderPayment(state.started!.checkoutId));
      if (redirect) return { redirect };
      return this.statePage((await this.load(id))!, 409);
    });
  }

  /** Where the provider sends the shopper back: the payment is verified server to server, never taken from the URL. */
  @Get(':id/return')
  returned(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.answer(request, reply, async () => {
      const state = await this.load(id);
      if (!state) return notFoundPage();
      const settled = await this.commands.execute(new VerifyCheckoutPayment(state.started!.checkoutId));
      if (
        settled.status === 'pending' &&
        !settled.payment &&
        statusAt(settled, this.clock.now()) === 'pending'
      ) {
        return {
          status: 200,
          html: messagePage(
            'Waiting for your payment',
            'We have not received confirmation of your payment yet. This page checks again in a few seconds.',
            {
              summary: this.summary(settled),
              refreshSeconds: 5,
              link: this.pageLink(settled),
            },
          ),
        };
      }
      return this.outcome(settled);
    });
  }

  /** Where the shopper goes once the checkout has an outcome. */
  private outcome(state: Checkout): Answer {
    const s = state.started!;
    const status = statusAt(state, this.clock.now());
    // Paid: to success_url, once succeeded (or after the wait ran out: the status endpoint tells the truth).
    if (status === 'succeeded' || state.payment)
      return { redirect: withCheckoutId(s.successUrl, s.checkoutId) };
    if (status === 'failed') {
      if (s.cancelUrl) return { redirect: withCheckoutId(s.cancelUrl, s.checkoutId) };
      return this.statePage(state, 200);
    }
    if (status === 'expired') return this.statePage(state, 410);
    return { status: 200, html: payPage(this.summary(state)) };
  }

  /** A page saying where the checkout stands; never offers a second payment. */
  private statePage(state: Checkout, httpStatus: number): Answer {
    const s = state.started!;
    const summary = this.summary(state);
    const status = statusAt(state, this.clock.now());
    if (status === 'succeeded') {
      return {
        status: httpStatus,
        html: messagePage('Payment complete', `Your SMS credits were added. This checkout is already paid.`, {
          summary,
          link: {
            href: withCheckoutId(s.successUrl, s.checkoutId),
            label: `Return to ${summary.returnHost}`,
          },
        }),
      };
    }
    if (state.payment) {
      return {
        status: httpStatus,
        html: messagePage(
          'Payment received',
          'Your payment was received; your SMS credits are being added. This page refreshes by itself.',
          {
            summary,
            refreshSeconds: 2,
            link: {
              href: withCheckoutId(s.successUrl, s.checkoutId),
              label: `Return to ${summary.returnHost}`,
            },
          },
        ),
      };
    }
    if (status === 'failed') {
      return {
        status: httpStatus,
        html: messagePage(
          'Payment declined',
          'The payment was declined or cancelled. No money was taken and no credits were added.',
          {
            summary,
            link: s.cancelUrl
              ? {
                  href: withCheckoutId(s.cancelUrl, s.checkoutId),
                  label: `Return to ${returnHost(s.cancelUrl)}`,
                }
              : undefined,
          },
        ),
      };
    }
    if (status === 'expired') {
      return {
        status: httpStatus,
        html: messagePage(
          'Checkout expired',
          'This checkout has expired and can no longer be paid. Please start a new purchase from the merchant.',
          {
            summary,
            link: s.cancelUrl
              ? {
                  href: withCheckoutId(s.cancelUrl, s.checkoutId),
                  label: `Return to ${returnHost(s.cancelUrl)}`,
                }
              : undefined,
          },
        ),
      };
    }
    return { status: httpStatus, html: payPage(summary) };
  }

  private summary(state: Checkout): CheckoutSummary {
    const s = state.started!;
    return {
      checkoutId: s.checkoutId,
      packageName: this.config.packages.find((p) => p.id === s.packageId)?.name ?? s.packageId,
      sms: s.sms,
      amount: s.amount,
      currency: s.currency,
      returnHost: returnHost(s.successUrl),
      environment: s.environment,
    };
  }

  private pageLink(state: Checkout) {
    return {
      href: `/checkout/${encodeURIComponent(state.started!.checkoutId)}`,
      label: 'Back to the checkout',
    };
  }

  /** Rate-limits per client address, runs the action, and answers HTML whatever happens. */
  private async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    action: () => Promise<Answer>,
  ): Promise<void> {
    let answer: Answer;
    try {
      this.limiter.consumeForAddress(request.ip);
      answer = await action();
    } catch (error) {
      answer = this.errorPage(error, request);
    }
    void reply.headers(HTML_HEADERS);
    if ('redirect' in answer) {
      void reply.status(303).header('location', answer.redirect).send();
      return;
    }
    if (answer.headers) void reply.headers(answer.headers);
    void reply.status(answer.status).send(answer.html);
  }

  private errorPage(error: unknown, request: FastifyRequest): Answer {
    if (error instanceof DomainErrorWithHeaders && error.kind === 'rate_limit') {
      return {
        status: 429,
        html: messagePage('Too many requests', 'Please wait a moment and try again.'),
        headers: error.headers,
      };
    }
    if (error instanceof DomainError) {
      if (error.kind === 'not_found') return notFoundPage();
      if (error.code === 'checkout_expired')
        return {
          status: 410,
          html: messagePage('Checkout expired', 'This checkout has expired and can no longer be paid.'),
        };
      if (error.code === 'checkout_failed')
        return {
          status: 409,
          html: messagePage('Payment declined', 'This checkout was declined and can no longer be paid.'),
        };
      if (error.kind === 'unavailable')
        return {
          status: 503,
          html: messagePage(
            'Payments unavailable',
            'Payments are not available right now. Please try again later.',
          ),
        };
      return { status: 409, html: messagePage('Cannot continue', error.message) };
    }
    this.logger.error(
      `${request.method} ${request.url.split('?')[0]} ${request.id}`,
      (error as Error)?.stack,
    );
    return {
      status: 502,
      html: messagePage(
        'Please try again',
        'Something went wrong while talking to the payment provider. Please try again in a moment.',
      ),
    };
  }
}

function notFoundPage(): Answer {
  return {
    status: 404,
    html: messagePage(
      'Checkout not found',
      'This checkout link is not valid. Please start again from the merchant’s site.',
    ),
  };
}
