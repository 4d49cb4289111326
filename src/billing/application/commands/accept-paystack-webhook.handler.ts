import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, invalid } from '../../../shared/domain-error';
import { isIdOf } from '../../../shared/ids';
import { PAYMENT_PROVIDERS, PaymentProviders } from '../../ports/payment-provider.port';
import { CheckoutPayments } from '../checkout-payments.service';
import { AcceptPaystackWebhook, WebhookReceipt } from './accept-paystack-webhook.command';

/** How long a webhook waits for its payment to settle before answering 200 anyway. */
const ANSWER_WITHIN_MS = 5_000;

const RECEIVED: WebhookReceipt = { object: 'webhook_receipt', received: true };

/**
 * Only a valid `x-paystack-signature` over the raw body is accepted; even then nothing in the
 * body is trusted: the payment is verified server to server and its amount and currency checked
 * against the checkout before any credit.
 */
@CommandHandler(AcceptPaystackWebhook)
export class AcceptPaystackWebhookHandler implements ICommandHandler<AcceptPaystackWebhook, WebhookReceipt> {
  private readonly logger = new Logger('paystack-webhook');

  constructor(
    private readonly payments: CheckoutPayments,
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProviders,
  ) {}

  async execute({ rawBody, headers }: AcceptPaystackWebhook): Promise<WebhookReceipt> {
    const provider = this.providers.forEnvironment('LIVE');
    if (!provider || provider.name !== 'paystack') {
      throw new DomainError(
        'unavailable',
        'payments_unavailable',
        'Paystack is not configured on this service',
      );
    }
    const parsed = provider.parseWebhook(rawBody, headers);
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
    if (parsed.event !== 'charge.success') return RECEIVED;
    const reference = parsed.reference;
    const state = isIdOf('chk', reference) ? await this.payments.load(reference) : null;
    if (!state?.started || state.started.provider !== 'paystack') {
      this.logger.warn(
        `charge.success for unknown reference ${JSON.stringify(reference)?.slice(0, 80)}: ignored`,
      );
      return RECEIVED;
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
    return RECEIVED;
  }
}
