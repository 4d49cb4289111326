import { Controller, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DomainError, invalid } from '../../shared/domain-error';
import { isIdOf } from '../../shared/ids';
import { CheckoutPayments } from '../application/checkout-payments.service';
import { CheckoutsService } from '../application/checkouts.service';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../ports/payment-provider.port';

/** How long a webhook waits for its payment to settle before answering 200 anyway. */
const ANSWER_WITHIN_MS = 5_000;

/**
 * Paystack's webhook. Only a valid `x-paystack-signature` over the raw body is accepted; even
 * then nothing in the body is trusted: the payment is verified server to server and its amount
 * and currency checked against the checkout before any credit.
 */
@ApiTags('billing')
@Controller('v1/billing/webhooks')
export class PaystackWebhookHttpController {
  private readonly logger = new Logger('paystack-webhook');

  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly payments: CheckoutPayments,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
  ) {}

  @Post('paystack')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async paystack(@Req() request: RawBodyRequest<FastifyRequest>) {
    const provider = this.providers.forEnvironment('LIVE');
    if (!provider || provider.name !== 'paystack') {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Paystack is not configured on this service',
      );
    }
    const raw = request.rawBody;
    const parsed = provider.parseWebhook(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0), request.headers);
    if (!parsed.accepted) {
      if (parsed.reason === 'bad_signature') {
        throw new DomainError(
          'authentication',
          'invalid_signature',
          'The x-paystack-signature header does not match the body',
        );
      }
      throw invalid('invalid_webhook', 'The webhook body is not a Paystack event');
    }
    const received = { object: 'webhook_receipt', received: true };
    if (parsed.event !== 'charge.success') return received;
    const reference = parsed.reference;
    const state = isIdOf('chk', reference) ? await this.checkouts.load(reference) : null;
    if (!state || state.started?.provider !== 'paystack') {
      this.logger.warn(
        `charge.success for unknown reference ${JSON.stringify(reference)?.slice(0, 80)}: ignored`,
      );
      return received;
    }
    const checkoutId = state.started.checkoutId;
    const settling = this.payments.settleAndWait(checkoutId, () => this.payments.verifyAndSettle(checkoutId));
    settling.catch((error) =>
      this.logger.error(`checkout ${checkoutId}: webhook settlement failed: ${String(error)}`),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      settling.catch(() => undefined),
      new Promise((resolve) => {
        timer = setTimeout(resolve, ANSWER_WITHIN_MS);
      }),
    ]);
    clearTimeout(timer);
    return received;
  }
}
